"""okey_server: the gRPC layer of okey-rules (servicers, errors, logging, config, main)."""
