/* master.c - remote play of Crusader Kingdoms (herald-move(1)): the seats
 * that players hold, and which part of an action is chance.  Herald makes
 * every draw at the start of a turn and every move of a side no player
 * holds (section 8); in a player's action the dice, the cards drawn, taken
 * or discarded at random, and the outcome they give are herald's: the
 * seat's choice ends where the first of " / ", " draws ", " takes " or
 * " discards " begins. */
#include "config.h"

#include <string.h>

#include "ck.h"

size_t hg_ck_chance_split(const hg_state *s, const char *seat, const char *body)
{
	for (int f = 0; f < s->nsides; f++)
		if (ck_scripted(s, f) && strcmp(s->sc->factions[f].id, seat) == 0)
			return 0;
	if (strncmp(body, "draw", 4) == 0 && (body[4] == ' ' || body[4] == '\0'))
		return 0;
	static const char *const chance_marks[] = { " / ", " draws ", " takes ", " discards " };
	size_t split = strlen(body);
	for (size_t k = 0; k < sizeof chance_marks / sizeof chance_marks[0]; k++) {
		const char *at = strstr(body, chance_marks[k]);
		if (at && (size_t)(at - body) < split)
			split = (size_t)(at - body);
	}
	return split;
}

/* Against the scripted Muslims (section 8) the crusaders win or lose
 * together: a resignation is their defeat, written as the lowest level of
 * 8.5 is, without the victory points the game did not reach.  Between
 * players, the other players share the victory (7.3's form of a shared
 * result). */
void hg_ck_resign_result(const hg_state *s, unsigned seat, hg_buf *out)
{
	if (s->sc->scripted_mask) {
		hg_buf_puts(out, "defeat");
		return;
	}
	size_t n = 0;
	for (unsigned i = 0; ck_view_seat_name(s, i); i++)
		if (i != seat)
			hg_buf_printf(out, "%s%s", n++ ? ", " : "", ck_view_seat_name(s, i));
}
