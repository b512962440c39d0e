"""Set-up for the unit tests."""

from __future__ import annotations

import pytest

# The conformance-vector checks' shared assertions report their values like a test's own.
pytest.register_assert_rewrite("vector_support")
