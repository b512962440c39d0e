"""Hand analysis for classic Okey: distance to a win and useful draws."""
