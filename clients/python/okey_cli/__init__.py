"""The reference command-line client `okey`, built on the generated okey.v1 stubs."""
