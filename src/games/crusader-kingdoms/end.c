/* end.c - Crusader Kingdoms: the end of the game and its winner (7.3), or
 * the crusaders' victory level (8.5).
 *
 * Sudden victory: the moment a player has every one of its castle tokens
 * on the map, it wins.  Otherwise, at the end of the last turn, the player
 * with the most castles on the map wins; a tie goes to the highest card
 * bonus among the tied; players still tied share the victory.  The result
 * is the winner's faction id, or the tied winners' ids joined by ", " in
 * the deployment table's order.
 *
 * In the 1- and 2-player games (8.5) there is no sudden victory: after the
 * last turn the crusaders score the victory points of the areas they
 * control, plus their card bonus and minus the Muslims'; the scenario's
 * levels (15 or more a victory, 11 to 14 a marginal victory, 10 or less a
 * defeat) name the result, written "LEVEL, N VP" ("marginal victory, 12
 * VP").
 */
#include "config.h"

#include <stdio.h>
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

/* 7.3, first way: every castle token placed (not in section 8, which
 * ends only by victory points). */
void hg_ck_check_sudden(hg_state *s, int seat)
{
	if (s->sc->nlevels == 0 && s->sc->factions[seat].player &&
	    hg_ck_castles_on_map(s, seat) >= s->sc->factions[seat].castles) {
		int w = seat;
		set_result(s, &w, 1);
	}
}

/* 8.5: "victory points for the areas they control, plus or minus the
 * difference between their card bonus and the Muslims'": the players'
 * bonus markers together against the scripted sides' (ruling 36); with
 * BonusDifference "each", each player's against them, so theirs counts
 * once per player. */
int hg_ck_victory_points(const hg_state *s)
{
	int vp = 0, players = 0;
	for (int a = 0; a < s->map->nareas; a++)
		if (s->owner[a] >= 0 && s->sc->factions[s->owner[a]].player)
			vp += s->map->areas[a].points;
	for (int f = 0; f < s->nsides; f++)
		players += s->sc->factions[f].player;
	int times = s->bonus_each ? players : 1;
	for (int f = 0; f < s->nsides; f++)
		vp += s->sc->factions[f].player ? s->p[f].bonus : -times * s->p[f].bonus;
	return vp;
}

static void level_result(hg_state *s)
{
	int vp = hg_ck_victory_points(s);
	const ck_level *lv = &s->sc->levels[s->sc->nlevels - 1];
	for (int i = 0; i + 1 < s->sc->nlevels; i++)
		if (vp >= s->sc->levels[i].from) {
			lv = &s->sc->levels[i];
			break;
		}
	snprintf(s->result, sizeof s->result, "%s, %d VP", lv->name, vp);
	s->phase = CK_PHASE_OVER;
}

/* 7.3, second way: the most castles, then the highest bonus. */
void hg_ck_final_result(hg_state *s)
{
	if (s->sc->nlevels > 0) {
		level_result(s);
		return;
	}
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
