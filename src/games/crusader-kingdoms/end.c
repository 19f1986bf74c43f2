/* end.c - Crusader Kingdoms: the end of the game and its winner (7.3).
 *
 * Sudden victory: the moment a player has every one of its castle tokens
 * on the map, it wins.  Otherwise, at the end of the last turn, the player
 * with the most castles on the map wins; a tie goes to the highest card
 * bonus among the tied; players still tied share the victory.  The result
 * is the winner's faction id, or the tied winners' ids joined by ", " in
 * the deployment table's order.
 */
#include "config.h"

#include <string.h>

#include "ck.h"

static void set_result(hg_state *s, const int *winners, int n)
{
	s->result[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(s->result, ", ");
		strcat(s->result, s->sc->factions[winners[i]].id);
	}
	s->phase = CK_PHASE_OVER;
}

/* 7.3, first way: every castle token placed. */
void hg_ck_check_sudden(hg_state *s, int seat)
{
	if (hg_ck_castles_on_map(s, seat) >= s->sc->factions[seat].castles) {
		int w = seat;
		set_result(s, &w, 1);
	}
}

/* 7.3, second way: the most castles, then the highest bonus. */
void hg_ck_final_result(hg_state *s)
{
	int best = -1, winners[CK_MAX_SIDES], n = 0;
	for (int f = 0; f < s->nsides; f++) {
		if (!s->sc->factions[f].player)
			continue;
		int castles = hg_ck_castles_on_map(s, f);
		if (castles > best) {
			best = castles;
			n = 0;
		}
		if (castles == best)
			winners[n++] = f;
	}
	int top = CK_MIN_BONUS - 1, m = 0;
	for (int i = 0; i < n; i++) {
		int b = s->p[winners[i]].bonus;
		if (b > top) {
			top = b;
			m = 0;
		}
		if (b == top)
			winners[m++] = winners[i];
	}
	set_result(s, winners, m);
}
