// The your-turn page: the signed-in player's correspondence games where it is their move.
import { ready } from "/static/lib/header.js";
import { showYourTurn } from "/static/lib/yourturn.js";

await showYourTurn();
ready();  // (the tests' ready marker)
