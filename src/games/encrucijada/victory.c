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
	/* Effects of the fallen wait no longer; an exchange aimed at them
	 * closes unresolved (ruling 13). */
	if (s->ex.active && s->ex.target == seat)
		s->ex.active = 0;
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

void enc_check_victory(hg_state *s, const int (*res_now)[ENC_MAX_RES])
{
	if (s->over)
		return;
	const enc_pool *pool = &s->data->pool;
	/* Conquistar and Resistir. */
	for (int i = 0; i < s->nseats; i++) {
		if (!enc_alive(s, i))
			continue;
		if (s->p[i].resistance <= 0) {
			enc_eliminate(s, i, ENC_LOST_TOWER);
			res_now = NULL;	/* the war may have ended with it */
			continue;
		}
		if (pile_ran_out(s, i)) {
			enc_eliminate(s, i, ENC_LOST_PILE);
			res_now = NULL;
		}
	}
	/* Gobernar: each team's totals (teams are numbered below nseats);
	 * the acting side first when two get there at once. */
	int total[ENC_MAX_SEATS][ENC_MAX_RES];
	memset(total, 0, sizeof total);
	for (int i = 0; i < s->nseats; i++) {
		if (!enc_alive(s, i))
			continue;
		int own[ENC_MAX_RES];
		const int *res = res_now ? res_now[i] : own;
		if (!res_now)
			enc_resources(s, i, own);
		for (int r = 0; r < pool->nres; r++)
			total[s->p[i].team][r] += res[r];
	}
	for (int k = 0; k < s->nseats && !s->over; k++) {
		int seat = (s->current + k) % s->nseats;
		int team = s->p[seat].team;
		if (!enc_alive(s, seat))
			continue;
		int threshold = enc_team_threshold(s, team);
		for (int r = 0; r < pool->nres; r++)
			if (total[team][r] >= threshold) {
				declare(s, team);
				return;
			}
	}
	if (s->over)
		return;
	int team = -1, teams = 0;
	for (int i = 0; i < s->nseats; i++)
		if (enc_alive(s, i) && s->p[i].team != team) {
			int seen = 0;
			for (int k = 0; k < i; k++)
				if (enc_alive(s, k) && s->p[k].team == s->p[i].team)
					seen = 1;
			if (!seen) {
				teams++;
				team = s->p[i].team;
			}
		}
	if (teams == 1)
		declare(s, team);
	else if (teams == 0)
		declare(s, -1);
}
