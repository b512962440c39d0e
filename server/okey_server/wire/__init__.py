"""Translation between okey.v1 messages and engine values, and the sealed tokens."""
