"""Hand search: whether tiles win (melds, seven pairs, kafa) and Okey 101 openings."""
