"""A round as a state machine, classic and Okey 101 behind one Round interface."""
