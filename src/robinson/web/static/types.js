// @ts-check
// The server's messages as JSDoc types, for TypeScript's checker over the page's modules
// (tests/web/test_js_types.py); nothing runs here. They mirror the pydantic models of
// src/robinson/web/protocol/ (server.py: REST answers; messages.py: the WebSocket's), which
// docs/protocol.md explains. A field added there belongs here too.

// -- a table's game -----------------------------------------------------------------------------

/** @typedef {"human" | "bot"} Kind */

/**
 * An engine event as JSON (robinson.engine events): its `kind` and its own fields.
 * @typedef {{kind: string, seat?: number, [field: string]: any}} GameEvent
 */

/**
 * A pawn's place and purse (server.py PlayerState).
 * @typedef {object} PlayerState
 * @property {number} position
 * @property {number} purse
 * @property {boolean} alive
 * @property {number | null} friday
 * @property {number} skips
 * @property {boolean} shipwrecked
 */

/**
 * A seat as a table shows it: who, the pawn, the presence (server.py PlayerView).
 * @typedef {PlayerState & {
 *   seat: number, kind: Kind, bot: string | null, name: string,
 *   present: boolean, away_since: string | null, absent: boolean, timeouts: number,
 *   claimed: boolean, vacation_until: string | null, vacation_left: number, wins: number,
 * }} PlayerView
 */

/** @typedef {{seat: number, deadline: string, now: string}} Clock */
/** @typedef {{option: string, square: number | null}} Lead */
/** @typedef {{seat: number, seed: string, by: "player" | "server"}} DiceSeed */
/** A step of the end: a `won` or `transfer` event and its words. @typedef {GameEvent & {text: string}} PayoutStep */

/**
 * A game as its table shows it (server.py GameView).
 * @typedef {object} GameView
 * @property {string} id
 * @property {number} number 1 for a table's first game, 2 for the rematch, ...
 * @property {Record<string, any>} ruleset
 * @property {string} rules the ruleset in the viewer's language
 * @property {number} first
 * @property {number} version the number of actions in the log
 * @property {string} phase
 * @property {number | null} to_move
 * @property {number | null} pending_roll
 * @property {number | null} last_roll
 * @property {number} bank
 * @property {boolean} over
 * @property {number | null} winner
 * @property {string[]} legal
 * @property {Lead[]} leads
 * @property {string} prompt
 * @property {string} prompt_you
 * @property {string} seed_sha256
 * @property {string | null} seed
 * @property {string} dice_scheme
 * @property {DiceSeed[]} dice_seeds
 * @property {PayoutStep[]} payout
 * @property {number | null} move_seconds
 * @property {number} vacation_days
 * @property {number} absent_after
 * @property {Clock | null} clock
 * @property {number} watching
 * @property {number[]} awaited
 * @property {PlayerView[]} players
 */

// -- the WebSocket, server to page (messages.py) ------------------------------------------------

/**
 * @typedef {object} Snapshot
 * @property {"snapshot"} type
 * @property {string} table
 * @property {string} language
 * @property {string} lang
 * @property {number[]} you the seats this connection holds
 * @property {GameView} game
 * @property {string[]} log
 * @property {[string, number | null][]} [log_kinds]
 * @property {number} [log_turn]
 * @property {string[]} [log_you]
 */

/**
 * A move and what it did: the replay's step and the live update share it (server.py _Move).
 * @typedef {object} Move
 * @property {Record<string, any>} action
 * @property {GameEvent[]} events
 * @property {string[]} narration
 * @property {number[]} [told]
 * @property {string[]} [notes]
 */

/**
 * @typedef {Move & {type: "update", game: string, version: number, seat: number,
 *   narration_you?: string[], state: GameView}} Update
 */

/** @typedef {{type: "state", state: GameView, narration?: string[]}} StateChanged */
/** @typedef {{type: "reaction", seat: number, reaction: string}} Reacted */
/** @typedef {number | string | null} MessageId */
/** @typedef {{type: "ack", id?: MessageId, version?: number | null, game?: string | null}} Ack */
/** @typedef {{type: "pong", id?: MessageId}} Pong */
/** @typedef {{type: "error", code: string, message: string, id?: MessageId}} ErrorMessage */
/** @typedef {Snapshot | Update | StateChanged | Reacted | Ack | Pong | ErrorMessage} ServerMessage */

// -- REST (server.py) ---------------------------------------------------------------------------

/** @typedef {{code: string, message: string}} ErrorBody */
/** @typedef {{table: string, language: string, game: GameView}} TableView */
/** @typedef {{name: string, fever: string, choices: string}} Edition */
/**
 * @typedef {object} Meta
 * @property {Edition[]} editions
 * @property {string[]} bots
 * @property {string[]} languages
 * @property {{name: number, min_seats: number, max_seats: number, message: number}} limits
 * @property {Record<string, any>[]} decisions
 * @property {boolean} mail
 */

/** @typedef {{number: number, kind: string, title: string, story: string, effect: string | null}} SquareText */
/**
 * The page's words in one language (GET /api/i18n/{lang}).
 * @typedef {object} Texts
 * @property {string} lang
 * @property {Record<string, string>} ui
 * @property {Record<string, string[]>} plurals
 * @property {number[]} plural_index
 * @property {Record<string, string>} options
 * @property {SquareText[]} squares
 * @property {string} rules
 */

/**
 * @typedef {object} Odds
 * @property {number} version
 * @property {number[]} p_win
 * @property {number} p_no_winner
 * @property {"exact" | "simulation"} method
 * @property {string} policy
 * @property {Record<string, number> | null} [options]
 * @property {number[][] | null} [ci95]
 * @property {number | null} [games]
 * @property {string | null} [policy_played]
 * @property {number | null} [seed]
 */
/** @typedef {{turn: number, version: number, seat: number | null, square: number | null, roll: number | null, p_win: number[]}} OddsPoint */
/** @typedef {{turn: number, version: number, seat: number, roll: number, square: number, delta: number}} OddsSwing */
/** @typedef {{version: number, policy: string, points: OddsPoint[], swings: OddsSwing[]}} OddsHistory */

/** @typedef {{over: boolean, winner: number | null, to_move: number | null, phase: string, pending_roll: number | null, bank: number, players: PlayerState[]}} StateJson */
/** @typedef {Move & {state: StateJson}} ReplayStep */
/**
 * @typedef {object} Replay
 * @property {string} game
 * @property {Record<string, any>} record the engine's record JSON
 * @property {{kind: Kind, bot: string | null}[]} seats
 * @property {{version: number, seat: number, kind: Kind}[]} seat_changes
 * @property {StateJson} initial
 * @property {number} total
 * @property {number} start
 * @property {ReplayStep[]} steps
 */

/** @typedef {{seat: number, name: string}} Offer */
/** @typedef {{seat: number, token: string, link: string}} Claimed */
/** @typedef {{seat: number, link: string, qr: string}} SeatLink */
/** @typedef {{seat: number, name: string, kind: Kind, claimed: boolean, present: boolean, link: string | null, qr: string | null}} InviteSeat */
/** @typedef {{table: string, spectator: string, spectator_qr: string, seats: InviteSeat[]}} Invites */

export {};
