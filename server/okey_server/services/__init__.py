"""The four okey.v1 services: each RPC read into engine values and answered."""
