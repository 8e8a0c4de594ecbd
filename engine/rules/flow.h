#pragma once
// The turn's flow: the automatic transitions that follow an action (in the manner of
// boardgame.io's Process): Step One -> Step Two when every player has revealed, Step Two -> Step
// Three when every ship has its orders, phase ends, Step 4, the next turn, and the end of the game.

#include "engine/rules/context.h"

namespace diskref::rules {

// Applies every transition that is due; stops where the game waits for an action.
void advance(Ctx& ctx);

// Ends the current orders phase: the next phase, or Step 4 after the third.
void end_phase(Ctx& ctx);

// "last side controlling a ship" (docs/rules.md, open parameter 18), where a side that still has
// crew aboard a ship is not out ("The other player may not be out of the game, though, especially
// if he still has crew on board"). Ends the game and returns true when at most one side is left.
bool check_victory(Ctx& ctx);

}  // namespace diskref::rules
