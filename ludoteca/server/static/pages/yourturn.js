// The your-turn page: the signed-in player's correspondence games where it is their move.
import "/static/lib/header.js";
import { showYourTurn } from "/static/lib/yourturn.js";

showYourTurn();
