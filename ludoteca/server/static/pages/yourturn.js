// The your-turn page: the signed-in player's correspondence games where it is their move, and
// their challenges, received and sent.
import { showChallenges } from "/static/lib/challenges.js";
import { ready } from "/static/lib/header.js";
import { showYourTurn } from "/static/lib/yourturn.js";

await Promise.all([showYourTurn(), showChallenges()]);
ready();  // (the tests' ready marker)
