// A move's events as lines of the table's log, as seat 0 may see them: a tile another
// seat drew from the wall is private to it and never shown.

import { type Event, EventKind } from "@okey-rules/client/web";

import { HUMAN_SEAT } from "./round.js";
import { notation, notations } from "./tiles.js";
import { penaltyWords, seatName, seatPossessive, winKindWords } from "./words.js";

function tileText(event: Event): string {
  return event.tile === undefined ? "a tile" : notation(event.tile);
}

/** One line per event (none for an event seat 0 may not know of). */
export function eventLine(event: Event): string {
  const who = seatName(event.seat);
  switch (event.kind) {
    case EventKind.DREW_FROM_WALL:
      return event.private && event.seat !== HUMAN_SEAT || event.tile === undefined
        ? `${who} drew from the wall.`
        : `${who} drew ${tileText(event)} from the wall.`;
    case EventKind.TOOK_DISCARD:
      return `${who} took ${tileText(event)} from ${seatPossessive(event.fromSeat)} discards.`;
    case EventKind.DISCARDED:
      return `${who} discarded ${tileText(event)}.`;
    case EventKind.GOSTERME:
      return `${who} showed gösterme with ${tileText(event)}.`;
    case EventKind.TURN_TIMED_OUT:
      return `${who}'s turn timed out.`;
    case EventKind.ROUND_WON: {
      const outcome = event.outcome;
      const how = outcome === undefined ? "" : ` with ${winKindWords(outcome.winKind)}`;
      const okey = outcome?.okeyDiscard === true ? " (an okey as the last discard: doubled)" : "";
      return `${who} finished${how}, discarding ${tileText(event)} onto the indicator${okey}.`;
    }
    case EventKind.ROUND_DRAWN:
      return "The round ended with no winner.";
    case EventKind.RETURNED_DISCARD:
      return `${who} gave ${tileText(event)} back to ${seatPossessive(event.fromSeat)} discards and draws from the bank.`;
    case EventKind.OPENED:
      return `${who} opened with ${notations(event.tiles)}.`;
    case EventKind.LAID_MELD:
      return `${who} laid ${notations(event.tiles)}.`;
    case EventKind.LAID_OFF:
      return `${who} laid ${tileText(event)} off onto meld ${event.meld + 1}.`;
    case EventKind.TOOK_BACK:
      return `${who} took back ${notations(event.tiles)}.`;
    case EventKind.PENALTY:
      return `${who}: penalty for ${penaltyWords(event.penalty)} (${event.points} points).`;
    case EventKind.ROUND_VOID:
      return "The round is void (all four opened with pairs): it is dealt again.";
    case EventKind.RETRIEVED_OKEY:
      return `${who} took the okey ${tileText(event)} off meld ${event.meld + 1}.`;
    default:
      return `${who}: event ${event.kind}.`;
  }
}

export function eventLines(events: readonly Event[]): string[] {
  return events.map(eventLine);
}
