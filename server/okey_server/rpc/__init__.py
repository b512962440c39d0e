"""The gRPC server itself: config, serving, processes, the per-RPC wrapper, errors,
logs and metrics."""
