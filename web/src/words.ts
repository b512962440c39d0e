// What the page says in words: each IllegalReason as a sentence, the penalties, the
// phases and the way a round was won. The server's own message is shown beside them.

import { IllegalReason, Penalty, Phase, WinKind } from "@okey-rules/client/web";

const ILLEGAL: Record<IllegalReason, string> = {
  [IllegalReason.UNSPECIFIED]: "The server gave no reason.",
  [IllegalReason.ROUND_OVER]: "The round is over: no move can be played.",
  [IllegalReason.NOT_YOUR_TURN]: "It is not your turn.",
  [IllegalReason.MUST_DRAW_FIRST]: "Draw a tile (from the wall or the previous discard) before you discard.",
  [IllegalReason.MUST_DISCARD_FIRST]: "You have drawn already: now discard a tile or finish.",
  [IllegalReason.TILE_NOT_IN_RACK]: "That tile is not in your rack.",
  [IllegalReason.WALL_EMPTY]: "The wall is empty: take the last discard only to finish with it, or end the round.",
  [IllegalReason.WALL_NOT_EMPTY]: "The round can only be ended this way once the wall is empty.",
  [IllegalReason.HAND_DOES_NOT_WIN]: "The 14 tiles left after that discard do not make a winning hand.",
  [IllegalReason.GOSTERME_TOO_LATE]: "Too late to show the indicator's twin (gösterme): you have drawn already.",
  [IllegalReason.GOSTERME_ALREADY_SHOWN]: "You have shown gösterme already this round.",
  [IllegalReason.GOSTERME_WITHOUT_TILE]: "You do not hold the tile identical to the indicator.",
  [IllegalReason.TURN_TIMED_OUT]: "Your turn has timed out.",
  [IllegalReason.TURN_NOT_TIMED_OUT]: "The turn has not timed out.",
  [IllegalReason.NOT_OPENED]: "Open first (101 points of melds, or five pairs) before laying melds or laying off.",
  [IllegalReason.ALREADY_OPENED]: "You have opened already.",
  [IllegalReason.INVALID_MELD]: "Those tiles are not a set or a run (or a pair, when opening with pairs).",
  [IllegalReason.TAKEN_DISCARD_NOT_USED]: "The discard you took must be laid this turn (or given back for a bank tile).",
  [IllegalReason.NO_DISCARD_TO_RETURN]: "There is no taken discard to give back, or something is laid already.",
  [IllegalReason.NOTHING_TO_TAKE_BACK]: "Nothing was laid this turn to take back.",
  [IllegalReason.NO_SUCH_MELD]: "There is no such meld on the table.",
  [IllegalReason.CANNOT_LAY_OFF]: "That tile does not extend that meld.",
  [IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS]: "You opened with pairs: you may lay only pairs, no sets or runs.",
  [IllegalReason.MUST_KEEP_A_TILE]: "That would empty your rack: a turn ends with a discard.",
  [IllegalReason.DISCARD_PILE_EMPTY]: "The previous player's discard pile is empty: draw from the bank.",
  [IllegalReason.LAY_OFF_CAP_REACHED]: "Two tiles were laid off onto that end of the meld this turn already.",
  [IllegalReason.GOSTERME_NOT_PLAYED]: "This table does not play gösterme.",
  [IllegalReason.MUST_SHOW_WIN]: "Your tiles make a winning hand without an okey: you must finish instead of discarding.",
  [IllegalReason.MUST_FINISH]: "You took the last discard to finish with it: now declare the win.",
};

/** An illegal move's reason as a sentence. */
export function illegalSentence(reason: IllegalReason): string {
  return ILLEGAL[reason] ?? `Illegal move (reason ${reason}).`;
}

const PENALTIES: Record<Penalty, string> = {
  [Penalty.UNSPECIFIED]: "a penalty",
  [Penalty.OKEY_DISCARDED]: "an okey discarded",
  [Penalty.FAILED_OPENING]: "an opening below the mark",
  [Penalty.DISCARD_COULD_BE_LAID_OFF]: "a discard that could have been laid off",
  [Penalty.TOOK_BACK_SEVERAL]: "several tiles taken back",
  [Penalty.OKEY_LEFT_IN_HAND]: "an okey left in the rack",
};

export function penaltyWords(penalty: Penalty): string {
  return PENALTIES[penalty] ?? "a penalty";
}

/** What the seat on turn does next: [said to the player, said of a bot]. */
const PHASES: Record<Phase, readonly [string, string]> = {
  [Phase.UNSPECIFIED]: ["", ""],
  [Phase.FIRST_DISCARD]: ["open the round with a discard", "opens the round with a discard"],
  [Phase.DRAW]: ["draw from the wall or take the discard", "draws"],
  [Phase.DISCARD]: ["discard a tile (or finish)", "discards"],
  [Phase.ROUND_OVER]: ["round over", "round over"],
};

export function phaseWords(phase: Phase, toPlayer: boolean): string {
  return PHASES[phase]?.[toPlayer ? 0 : 1] ?? "";
}

const WIN_KINDS: Record<WinKind, string> = {
  [WinKind.UNSPECIFIED]: "a win",
  [WinKind.MELDS]: "melds",
  [WinKind.SEVEN_PAIRS]: "seven pairs",
  [WinKind.KAFA]: "kafa",
};

export function winKindWords(kind: WinKind): string {
  return WIN_KINDS[kind] ?? "a win";
}

/** Seat names: the human is seat 0, the bots 1-3. */
export function seatName(seat: number): string {
  return seat === 0 ? "You" : `Bot ${seat}`;
}

/** "your" for seat 0, "Bot 2's" for a bot. */
export function seatPossessive(seat: number): string {
  return seat === 0 ? "your" : `Bot ${seat}'s`;
}
