/* victory.c - rule 4, Objetivo del juego: Conquistar (a tower at 0
 * resistance loses), Gobernar (150 of one resource wins, 100 more per ally),
 * Resistir (a player whose starting pile runs out loses).  The last side
 * standing wins. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"

/* Team size counts the allies still in the game (ruling 12). */
static int team_alive(const hg_state *s, int team)
{
	int n = 0;
	for (int i = 0; i < s->nseats; i++)
		if (s->p[i].team == team && enc_alive(s, i))
			n++;
	return n;
}

int enc_team_threshold(const hg_state *s, int team)
{
	int n = team_alive(s, team);
	return ENC_WIN_RESOURCE + ENC_WIN_PER_ALLY * (n > 0 ? n - 1 : 0);
}

static void declare(hg_state *s, int team)
{
	s->over = 1;
	s->winner_team = team;
	if (team < 0) {
		snprintf(s->result, sizeof s->result, "draw");
		return;
	}
	size_t len = 0;
	s->result[0] = '\0';
	for (int i = 0; i < s->nseats; i++)
		if (s->p[i].team == team) {
			len += (size_t)snprintf(s->result + len, sizeof s->result - len, "%s%s",
						len ? ", " : "", enc_seat_name(i));
			if (len >= sizeof s->result)
				break;
		}
}

void enc_eliminate(hg_state *s, int seat, int why)
{
	if (s->p[seat].eliminated)
		return;
	s->p[seat].eliminated = why;
	s->governed_checked = 0;	/* the thresholds and totals change */
	/* Effects of the fallen wait no longer; an exchange aimed at them
	 * closes unresolved (ruling 13). */
	while (s->ex.active && s->ex.target == seat) {
		if (s->ex.nwaiting > 0)
			s->ex.target = s->ex.waiting[--s->ex.nwaiting];
		else
			s->ex.active = 0;
	}
	if (s->war.stage != ENC_WAR_NONE && (s->war.att == seat || s->war.def == seat))
		enc_war_end(s);
}

/* Resistir (rule 4): has one of the seat's three piles run out? */
static int pile_ran_out(const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	for (int pile = 0; pile < ENC_PILES; pile++)
		if ((p->in_zone[ENC_Z_PILE] & p->from_pile[pile]) == 0)
			return 1;
	return 0;
}

void enc_check_victory(hg_state *s, const int *const *res_now)
{
	if (s->over)
		return;
	const enc_pool *pool = &s->data->pool;
	/* Conquistar and Resistir: only a tower's resistance or a card that
	 * leaves a pile makes a loser (hg_state.loss_unchecked). */
	int look = s->loss_unchecked;
	s->loss_unchecked = 0;
	for (int i = 0; look && i < s->nseats; i++) {
		if (!enc_alive(s, i))
			continue;
		if ((s->objectives & ENC_OBJ_CONQUER) && enc_tower_of(s, i)->resistance <= 0) {
			enc_eliminate(s, i, ENC_LOST_TOWER);
			res_now = NULL;	/* the war may have ended with it */
			continue;
		}
		if ((s->objectives & ENC_OBJ_RESIST) && pile_ran_out(s, i)) {
			enc_eliminate(s, i, ENC_LOST_PILE);
			res_now = NULL;
		}
	}
	/* Nothing Gobernar and the last side standing look at has changed
	 * since they found no winner (hg_state.governed_checked). */
	if (res_now && s->governed_checked)
		return;
	/* Gobernar: each team's totals (teams are numbered below nseats) and
	 * members in the game (ruling 12); the acting side first when two get
	 * there at once. */
	int nres = pool->nres;
	int total[ENC_MAX_SEATS][ENC_MAX_RES];
	int members[ENC_MAX_SEATS];
	unsigned teams_in = 0;	/* the teams with a member in the game */
	for (int i = 0; i < s->nseats; i++) {
		if (!enc_alive(s, i))
			continue;
		int own[ENC_MAX_RES];
		const int *res = res_now ? res_now[i] : own;
		if (!res_now)
			enc_resources(s, i, own);
		int team = s->p[i].team;
		if (s->p[i].tower_seat != i && enc_alive(s, s->p[i].tower_seat)) {
			/* A shared tower counts once for the side (ruling 28):
			 * its holder has counted it. */
			if (res != own) {
				memcpy(own, res, sizeof own);
				res = own;
			}
			for (int r = 0; r < nres; r++)
				own[r] -= pool->cards[s->p[i].tower].provides[r];
		}
		if (!(teams_in & 1u << team)) {
			teams_in |= 1u << team;
			members[team] = 0;
			memcpy(total[team], res, sizeof res[0] * (size_t)nres);
		} else {
			for (int r = 0; r < nres; r++)
				total[team][r] += res[r];
		}
		members[team]++;
	}
	for (int k = 0; (s->objectives & ENC_OBJ_GOVERN) && k < s->nseats; k++) {
		int seat = s->current + k < s->nseats ? s->current + k : s->current + k - s->nseats;
		int team = s->p[seat].team;
		if (!enc_alive(s, seat))
			continue;
		/* enc_team_threshold */
		int threshold = ENC_WIN_RESOURCE + ENC_WIN_PER_ALLY * (members[team] - 1);
		for (int r = 0; r < nres; r++)
			if (total[team][r] >= threshold) {
				declare(s, team);
				return;
			}
	}
	/* The last side standing wins; nobody standing is a draw. */
	int teams = 0;
	for (unsigned t = teams_in; t; t &= t - 1)
		teams++;
	if (teams == 1) {
		int team = 0;
		while (!(teams_in & 1u << team))
			team++;
		declare(s, team);
	} else if (teams == 0) {
		declare(s, -1);
	} else if (res_now) {
		s->governed_checked = 1;
	}
}

void hg_enc_check_victory(hg_state *s, const int *const *res_now)
{
	enc_check_victory(s, res_now);
}
