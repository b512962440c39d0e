"""Fixed, seeded hand corpora for the benchmarks: random, winning and near-winning hands."""

from __future__ import annotations

import random

from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, TILE_COUNT, Tile, indicator_for, okey_for

Hand = tuple[list[Tile], Tile]  # (tiles, okey)

# How many okeys a built winning hand holds: 0, 1 or 2 with these weights. A
# random 14-tile deal holds none 75% of the time, one 23%, both 1.6%; players
# keep okeys, so winning hands hold them about twice as often as a deal.
OKEY_WEIGHTS = (60, 32, 8)


def _random_okey(rng: random.Random) -> Tile:
    return okey_for(Tile.from_face(rng.randrange(52)))


def _possible(tiles: list[Tile] | None, okey: Tile) -> bool:
    """A hand can hold one copy of the indicator's face at most: the other is face up."""
    if tiles is None:
        return False
    shown = indicator_for(okey).face
    return sum(tile.face == shown for tile in tiles) <= 1


def random_hands(count: int, seed: int = 1, size: int = 14) -> list[Hand]:
    """`size` tiles drawn from a shuffled 106-tile set, with a random indicator."""
    rng = random.Random(seed)
    codes = list(range(TILE_COUNT))
    hands = []
    for _ in range(count):
        rng.shuffle(codes)
        tiles = [Tile.from_code(c) for c in codes[:size]]
        okey = _random_okey(rng)
        while not _possible(tiles, okey):
            okey = _random_okey(rng)
        hands.append((tiles, okey))
    return hands


def _random_meld(rng: random.Random, size: int) -> list[int]:
    """Faces of a random set (size 3-4) or run (size 3+) that fits within 1..13 (or 12-13-1)."""
    if size <= 4 and rng.random() < 0.4:
        number = rng.randrange(NUMBERS)
        colours = rng.sample(range(4), size)
        return [c * NUMBERS + number for c in colours]
    colour = rng.randrange(4)
    start = rng.randrange(0, NUMBERS - size + 2)  # start 12 with size 3 is 12-13-1 etc.
    return [colour * NUMBERS + (start + i) % NUMBERS for i in range(size)]


def winning_hands(count: int, seed: int = 2) -> list[Hand]:
    """Hands built from melds (or seven pairs), then up to two tiles swapped for okeys/jokers."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    shapes = [(3, 3, 4, 4), (3, 3, 3, 5), (4, 4, 6), (3, 5, 6), (3, 3, 3, 5), (7, 7), (3, 4, 7)]
    while len(hands) < count:
        okey = _random_okey(rng)
        okey_face = okey.face
        if rng.random() < 0.12:
            faces = [f for f in rng.sample(range(52), 7) for _ in range(2)]
        else:
            faces = []
            for size in rng.choice(shapes):
                faces += _random_meld(rng, size)
        # A natural okey-face tile in the hand is played by a false joker.
        faces = [FALSE_JOKER_FACE if f == okey_face else f for f in faces]
        for _ in range(rng.choices((0, 1, 2), OKEY_WEIGHTS)[0]):
            faces[rng.randrange(len(faces))] = okey_face
        tiles = _physical(faces)
        if tiles is not None and _possible(tiles, okey):
            hands.append((tiles, okey))
    return hands


def near_winning_hands(count: int, seed: int = 3) -> list[Hand]:
    """Winning hands with one or two tiles replaced by random other tiles."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    for tiles, okey in winning_hands(count * 2, seed + 100):
        if len(hands) == count:
            break
        faces = [t.face for t in tiles]
        for _ in range(rng.choice((1, 2))):
            faces[rng.randrange(14)] = rng.randrange(53)
        physical = _physical(faces)
        if physical is not None and _possible(physical, okey):
            hands.append((physical, okey))
    return hands


def fifteen_tile_hands(count: int, seed: int = 4) -> list[Hand]:
    """Winning or near-winning 14 plus one random tile: the "which discard wins" question."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    pool = winning_hands(count, seed + 200)[: count // 2] + near_winning_hands(count, seed + 300)
    for tiles, okey in pool:
        if len(hands) == count:
            break
        faces = [t.face for t in tiles] + [rng.randrange(53)]
        physical = _physical(faces)
        if physical is not None and _possible(physical, okey):
            hands.append((physical, okey))
    return hands


def _physical(faces: list[int]) -> list[Tile] | None:
    """Physical tiles for the faces (copies numbered), or None past two copies of a face."""
    seen: dict[int, int] = {}
    tiles = []
    for face in faces:
        copy = seen.get(face, 0)
        if copy > 1:
            return None
        seen[face] = copy + 1
        tiles.append(Tile.from_face(face, copy))
    return tiles
