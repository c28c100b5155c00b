// The shapes of the server's JSON that the pages read, for TypeScript's checking of the modules
// (tsconfig.json; nothing here runs).  They mirror ludoteca/server/schemas.py (the game's
// views and websocket messages) and the dicts the routes return (ludoteca/server/community/
// history.py, routers/*.py); a field added there is added here when a page reads it.  A module
// names one as import("/static/lib/types.js").Name in its JSDoc.

/**
 * A refused request's body (ludoteca/server/app.py's handlers: every refusal has this shape).
 * @typedef {{ error: string }} Refusal
 */

/**
 * /api/me: the session; both null when signed out.
 * @typedef {{ name: string | null, csrf: string | null }} Me
 */

/** @typedef {"white" | "black"} Colour */

/**
 * A touch of a move: its role and the point touched.
 * @typedef {["from" | "to" | "take", number]} Touch
 */

/**
 * A board's drawing (schemas.BoardView).
 * @typedef {object} BoardView
 * @property {string[]} points         each point's name ("d6")
 * @property {[number, number][]} coords
 * @property {[number, number][]} lines
 * @property {boolean} cells           drawn as cells (Morelli), not points on lines
 * @property {string[]} fills
 * @property {Record<string, {side: Colour, name: string, shape: string, ring: boolean}>} styles
 */

/**
 * A computer level of a rule set (its rating on people's scale once enough people played it).
 * @typedef {object} Level
 * @property {number} number
 * @property {string} name
 * @property {string} description
 * @property {number | null} rating
 * @property {number | null} deviation
 * @property {number | null} [kept]        whole percents of its moves that keep the value
 * @property {number} [kept_moves]         the moves judged against perfect play
 * @property {boolean} [kept_endgame]      judged in the endgames only
 */

/**
 * A rule set of the catalogue.
 * @typedef {object} RuleSet
 * @property {string} name
 * @property {string} title
 * @property {string} description
 * @property {BoardView} board
 * @property {string[]} pieces                            the start position
 * @property {Level[]} levels
 * @property {Record<string, boolean | number>} settings  the spec's settings and defaults
 * @property {Record<string, string>} options             each setting in words
 * @property {Record<string, {value: number | string, label: string}[]>} choices  the values of a setting of a few, in words
 * @property {boolean} custom            settings alone (Morris's custom rule set): only where settings are asked for
 */

/**
 * /api/rules: a rule-set spec read by the server.
 * @typedef {object} RulesRead
 * @property {string} rules      the canonical spec
 * @property {string} title      the title, with the settings that differ
 * @property {BoardView} board   the start
 * @property {string[]} pieces
 */

/**
 * /api/catalogue: a game and its rule sets.
 * @typedef {{ name: string, title: string, summary: string, rule_sets: RuleSet[] }} CatalogueGame
 */

/**
 * A game of the lobby's lists (/api/lobby: {open, live}).
 * @typedef {object} LobbyRow
 * @property {string} id
 * @property {string} rules_title
 * @property {string} mode
 * @property {Colour} free             the seat a player may join (open games)
 * @property {string} white             "human" or "level:N"
 * @property {string} black
 * @property {string | null} white_name
 * @property {string | null} black_name
 * @property {boolean} white_bot       the seat's account is a bot (shown "BOT")
 * @property {boolean} black_bot
 * @property {number} ply
 * @property {string | null} clock     "3+2"
 * @property {string} updated          ISO time
 */

/**
 * A seek (/api/seeks, /api/seeks/mine).
 * @typedef {object} Seek
 * @property {string} id
 * @property {string} player
 * @property {boolean} bot             the poster is a bot account
 * @property {number} rating
 * @property {string} rules_title
 * @property {string | null} clock
 * @property {boolean} rated
 * @property {"white" | "black" | "random"} colour
 * @property {number | null} min_rating
 * @property {number | null} max_rating
 * @property {string | null} game_id  the game, once taken
 */

/**
 * A rating of an account (history.py's _rating); the leaderboard's rows add the name.
 * @typedef {object} Rating
 * @property {string} game
 * @property {string} title       the game's title
 * @property {string} category    "blitz", "rapid", "classical" or "untimed"
 * @property {number} rating
 * @property {number} deviation
 * @property {boolean} provisional
 * @property {number} games
 */

/** @typedef {Rating & { name: string }} LeaderboardRow */

/**
 * A seat of a finished game.
 * @typedef {{ name: string, account: string | null, bot: boolean, computer: string | null }} FinishedSeat
 */

/**
 * A finished game (history.py's _game).
 * @typedef {object} FinishedGame
 * @property {string} id
 * @property {string} rules_title
 * @property {boolean} rated
 * @property {string | null} clock
 * @property {string} result              "1-0", "0-1", "1/2-1/2" or "*"
 * @property {string | null} termination
 * @property {string | null} termination_text
 * @property {number} moves
 * @property {FinishedSeat} white
 * @property {FinishedSeat} black
 * @property {string} ended               ISO time
 */

/** @typedef {{ games: FinishedGame[], page: number, more: boolean }} FinishedPage */

/**
 * /api/players/NAME: a player's page.
 * @typedef {object} Profile
 * @property {string} name
 * @property {boolean} bot                an engine plays the account (shown "BOT")
 * @property {string} joined              ISO time
 * @property {Rating[]} ratings
 * @property {{game: string, title: string, category: string, game_id: string, rating: number,
 *             change: number, at: string}[]} history
 * @property {{wins: number, draws: number, losses: number}} counts
 * @property {FinishedGame[]} games
 */

/**
 * A legal move as the page works with it (socket.js's readLegal): notation, touches, and the
 * points a capture chain removes.
 * @typedef {{ n: string, g: Touch[], x?: number[] }} Legal
 */

/**
 * The game's view (schemas.GameView, websocket "state"), its legal moves as they come on the
 * wire (strings; readLegal() makes them Legal).
 * @typedef {object} WireView
 * @property {"state"} type
 * @property {string} id
 * @property {string} game
 * @property {string} title
 * @property {string} rules_title
 * @property {string} mode
 * @property {boolean} rated
 * @property {string} status
 * @property {Record<string, string>} texts
 * @property {Record<Colour, {kind: "human" | "computer", label: string, seated: boolean,
 *                            account: string | null, bot: boolean}>} players
 * @property {BoardView} board
 * @property {string[]} pieces
 * @property {number[]} marked  the empty points where no piece may be put for now (Da San Qi)
 * @property {Colour} turn
 * @property {number} ply
 * @property {number} first_ply
 * @property {string[]} moves
 * @property {Touch[] | null} last
 * @property {[number, number] | null} hand
 * @property {string | null} notice
 * @property {string} description  the position in words (the blind mode reads it out)
 * @property {string} last_note
 * @property {Colour | null} last_colour  who made the last move (a removal-only turn's is its move's)
 * @property {{result: string, termination: string, text: string} | null} outcome
 * @property {Colour | null} draw_offer
 * @property {Colour | null} undo_offer
 * @property {boolean} thinking
 * @property {number} watchers
 * @property {{control: string, running: Colour | null, white: number, black: number} | null} clock
 * @property {Colour[]} you
 * @property {string[]} legal
 * @property {{id: string, token?: string} | null} rematch
 */

/** @typedef {Omit<WireView, "legal"> & { legal: Legal[] }} GameView */

/**
 * An update of the view (schemas.Update, websocket "update"): the fields that changed, the
 * pieces as [point, token] pairs and the moves as how many to keep and the ones to add.
 * Its legal moves, when they changed, are read as in GameView.
 * @typedef {Partial<Omit<GameView, "type">> & { type: "update", set?: [number, string][],
 *           moves_from?: number, append?: string[] }} ViewUpdate
 */

/**
 * A correspondence game where it is the reader's move (correspondence_schemas.YourTurnGame):
 * `clock` the days per move ("3d"), `deadline` epoch ms, `left` ms.
 * @typedef {Object} YourTurnGame
 * @property {string} id
 * @property {string} url
 * @property {string} game
 * @property {string} rules_title
 * @property {string} clock
 * @property {Colour} colour
 * @property {string | null} opponent
 * @property {boolean} opponent_bot
 * @property {number} ply
 * @property {number} deadline
 * @property {number} left
 */

/**
 * A game's correspondence state for the reader (correspondence_schemas.Deadline).
 * @typedef {Object} CorrespondenceView
 * @property {string} clock
 * @property {number} days
 * @property {Colour | null} to_move
 * @property {number | null} deadline
 * @property {number} left
 * @property {string[][]} lines
 * @property {boolean} can_plan
 */

/**
 * A challenge as both sides see it (community/challenges.ChallengeView): `colour` the
 * challenger's; `reason` a decline's key and `reason_text` its sentence; `expires` epoch ms.
 * @typedef {Object} Challenge
 * @property {string} id
 * @property {string} challenger
 * @property {boolean} challenger_bot
 * @property {string} challenged
 * @property {boolean} challenged_bot
 * @property {string} game
 * @property {string} rules
 * @property {string} rules_title
 * @property {string | null} clock
 * @property {boolean} rated
 * @property {"white" | "black" | "random"} colour
 * @property {"open" | "accepted" | "declined" | "canceled" | "expired"} status
 * @property {string | null} reason
 * @property {string | null} reason_text
 * @property {string | null} game_id
 * @property {number} expires
 */

/**
 * /api/challenges (community/challenges.MyChallenges): received (open) and sent challenges,
 * and the reasons to decline with.
 * @typedef {Object} MyChallenges
 * @property {Challenge[]} incoming
 * @property {Challenge[]} outgoing
 * @property {{key: string, text: string}[]} reasons
 */

/**
 * What an account is told, and how (notify.schemas.Preferences): per kind of event ("turn",
 * "over", "challenge"), by push and by e-mail; the e-mail address, if any.
 * @typedef {Object} NotificationChoices
 * @property {string | null} email
 * @property {Record<string, {push: boolean, email: boolean}>} kinds
 */

export {};

/**
 * A tournament in a list (tournaments/schemas.TournamentBrief): times epoch ms; `state`
 * "upcoming", "running" or "finished"; `round` the last round paired.
 * @typedef {Object} TournamentBrief
 * @property {string} id
 * @property {string} url
 * @property {string} name
 * @property {string} game
 * @property {string} rules
 * @property {string} rules_title
 * @property {string} clock
 * @property {"swiss" | "roundrobin" | "arena"} system
 * @property {number | null} rounds
 * @property {number | null} minutes
 * @property {number} starts
 * @property {number | null} ends
 * @property {boolean} rated
 * @property {number} max_players
 * @property {string} state
 * @property {number} round
 * @property {number} players
 */

/**
 * A line of a tournament's standings (tournaments/schemas.StandingView).
 * @typedef {Object} TournamentStanding
 * @property {number} rank
 * @property {string} name
 * @property {boolean} bot
 * @property {number} rating
 * @property {number} points
 * @property {number} buchholz
 * @property {number} buchholz_cut1
 * @property {number} sonneborn_berger
 * @property {number | null} performance
 * @property {number} games
 * @property {boolean} streak
 * @property {boolean} withdrawn
 */

/**
 * A pairing of a tournament's round (tournaments/schemas.BoardView): `black` null for a bye.
 * @typedef {Object} TournamentBoard
 * @property {number} round
 * @property {string} white
 * @property {boolean} white_bot
 * @property {string | null} black
 * @property {boolean} black_bot
 * @property {string} result
 * @property {string | null} url
 */

/**
 * A tournament's page (tournaments/schemas.TournamentView).
 * @typedef {TournamentBrief & {standings: TournamentStanding[], boards: TournamentBoard[], creator: string | null}} TournamentView
 */

/**
 * A tournament on a player's profile (tournaments/schemas.PlayerTournament).
 * @typedef {Object} PlayerTournament
 * @property {string} id
 * @property {string} url
 * @property {string} name
 * @property {"swiss" | "roundrobin" | "arena"} system
 * @property {string} state
 * @property {number} rank
 * @property {number} points
 * @property {number} players
 * @property {number} starts
 */

/**
 * A table's exact value for the side that makes a move, after it (study/schemas.ExactValue).
 * @typedef {Object} ExactValue
 * @property {number} score
 * @property {"win" | "draw" | "loss"} verdict
 * @property {number | null} plies
 * @property {string} text             "Win in 7 plies", "Draw"...
 */

/**
 * One of the player's moves in a practice game (study/schemas.PracticeMove).
 * @typedef {{ ply: number, move: string, before: ExactValue, after: ExactValue }} PracticeMove
 */

/**
 * A practice game against perfect play so far (study/schemas.Practice, POST
 * /api/analysis/practice).
 * @typedef {Object} Practice
 * @property {string} game
 * @property {string} rules
 * @property {string} start
 * @property {Colour} player
 * @property {ExactValue} value        the start's, for the player
 * @property {string | null} reply     the perfect player's move, when it is to move
 * @property {boolean} over            the game ended (after the reply)
 * @property {PracticeMove[]} moves
 * @property {boolean} kept
 * @property {PracticeMove | null} lost
 * @property {string} verdict          in words
 */

/**
 * A player's puzzle dashboard (study/mistake_schemas.Dashboard, GET /api/puzzles/dashboard).
 * @typedef {Object} PuzzleDashboard
 * @property {number} attempts
 * @property {number} solved
 * @property {number | null} rate
 * @property {{theme: string, theme_text: string, attempts: number, solved: number, rate: number}[]} themes
 * @property {{low: number, high: number, attempts: number, solved: number, rate: number}[]} bands
 * @property {{theme: string, theme_text: string, missed: number, rules: string, rules_title: string,
 *             url: string}[]} missed
 */
