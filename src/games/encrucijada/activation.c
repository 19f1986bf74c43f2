/* activation.c - resources and activation (rule 2, Recursos and Costo):
 * "Los recursos se suman entre las cartas Activas del Pueblo y la Atempus";
 * a card with a cost is active while they cover it; resources are never
 * spent; losing them deactivates at once.  Also the modifiers effects leave
 * behind (values, marks, resources) and when they end. */
#include "config.h"

#include <string.h>

#include "enc.h"

/* Does modifier m still hold?  Its source must be on the table and active
 * (rule 2, Efectos: "si esta carta es descartada o no puede pagarse su
 * costo durante la vuelta, el efecto se termina inmediatamente"). */
static int mod_source_ok(const hg_state *s, const enc_mod *m, int seat_checked,
			 const int *active)
{
	if (m->src_inst < 0)
		return 1;	/* the tower: never leaves */
	const enc_inst *c = &s->p[m->src_seat].inst[m->src_inst];
	if (c->zone == ENC_Z_DUEL)
		return 1;	/* the attacking card: checked when revealed */
	if (c->zone != ENC_Z_TOWN)
		return 0;
	if (m->src_seat == seat_checked && active)
		return active[m->src_inst];
	return 1;
}

/* The least fixed point: start with no town card active, add every card
 * whose cost the resources cover, repeat.  A card's own resources never pay
 * for itself (herald-encrucijada(7), ruling 3). */
void enc_activity(const hg_state *s, int seat, int active[ENC_MAX_DECK], int res[ENC_MAX_RES])
{
	const enc_pool *pool = &s->data->pool;
	const enc_player *p = &s->p[seat];
	const enc_card *tower = &pool->cards[p->tower];
	int base[ENC_MAX_RES], drain[ENC_MAX_RES];
	for (int r = 0; r < ENC_MAX_RES; r++) {
		base[r] = tower->provides[r];
		drain[r] = 0;
	}
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		if (m->seat != seat || m->res < 0 || !mod_source_ok(s, m, -1, NULL))
			continue;
		if (m->res_amount > 0)
			base[m->res] += m->res_amount;
		else
			drain[m->res] -= m->res_amount;
	}
	memset(active, 0, sizeof(int) * ENC_MAX_DECK);
	int town[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_TOWN, town);
	for (;;) {
		int raw[ENC_MAX_RES], shield[ENC_MAX_RES];
		for (int r = 0; r < ENC_MAX_RES; r++) {
			raw[r] = base[r];
			shield[r] = 0;
		}
		for (int k = 0; k < n; k++) {
			if (!active[town[k]])
				continue;
			const enc_card *c = enc_card_of(s, seat, town[k]);
			int shielded = c->civ >= 0 && pool->civs[c->civ].shielded;
			for (int r = 0; r < pool->nres; r++) {
				raw[r] += c->provides[r];
				if (shielded)
					shield[r] += c->provides[r];
			}
		}
		/* rule 2: what the Pacificadores provide no effect takes away. */
		for (int r = 0; r < ENC_MAX_RES; r++) {
			int left = raw[r] - drain[r];
			int floor = shield[r] < raw[r] ? shield[r] : raw[r];
			res[r] = left > floor ? left : floor;
		}
		int changed = 0;
		for (int k = 0; k < n; k++) {
			if (active[town[k]])
				continue;
			const enc_card *c = enc_card_of(s, seat, town[k]);
			int ok = 1;
			for (int r = 0; r < pool->nres && ok; r++)
				if (res[r] < c->cost[r])
					ok = 0;
			if (ok) {
				active[town[k]] = 1;
				changed = 1;
			}
		}
		if (!changed)
			break;
	}
}

void enc_resources(const hg_state *s, int seat, int out[ENC_MAX_RES])
{
	int active[ENC_MAX_DECK];
	enc_activity(s, seat, active, out);
}

int enc_is_active(const hg_state *s, int seat, int inst)
{
	const enc_inst *c = &s->p[seat].inst[inst];
	if (c->zone == ENC_Z_TOWN) {
		int active[ENC_MAX_DECK], res[ENC_MAX_RES];
		enc_activity(s, seat, active, res);
		return active[inst];
	}
	if (c->card < 0)
		return 0;
	return enc_can_activate(s, seat, c->card);
}

/* A card outside the town (revealed in battle, turned up) activates when
 * the town and the tower cover its cost. */
int enc_can_activate(const hg_state *s, int seat, int card)
{
	const enc_card *c = &s->data->pool.cards[card];
	int res[ENC_MAX_RES];
	enc_resources(s, seat, res);
	for (int r = 0; r < s->data->pool.nres; r++)
		if (res[r] < c->cost[r])
			return 0;
	return 1;
}

static int mod_reaches(const hg_state *s, const enc_mod *m, int seat, int inst)
{
	if (m->seat != seat)
		return 0;
	const enc_inst *c = &s->p[seat].inst[inst];
	switch (m->scope) {
	case ENC_SCOPE_ALL:
		return 1;
	case ENC_SCOPE_TOWN:
		return c->zone == ENC_Z_TOWN;
	case ENC_SCOPE_ATTACKING:
		return s->war.stage != ENC_WAR_NONE && s->war.att == seat &&
		       s->war.att_card == inst;
	case ENC_SCOPE_SOURCE:
		return m->inst == inst;
	}
	return 0;
}

/* A card's value now: printed, plus what effects give, less the side's wear
 * (rule 6.D2: "si el desgaste es 2, todas sus cartas tendrán 2 Valor
 * menos"). */
int enc_value(const hg_state *s, int seat, int inst)
{
	const enc_card *c = enc_card_of(s, seat, inst);
	int v = c ? c->value : 0;
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		if (m->value && mod_reaches(s, m, seat, inst) && mod_source_ok(s, m, -1, NULL))
			v += m->value;
	}
	return v - s->p[seat].wear;
}

unsigned enc_marks(const hg_state *s, int seat, int inst)
{
	const enc_card *c = enc_card_of(s, seat, inst);
	unsigned marks = c ? c->marks : 0;
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		if (m->marks && mod_reaches(s, m, seat, inst) && mod_source_ok(s, m, -1, NULL))
			marks |= m->marks;
	}
	return marks;
}

void enc_mod_add(hg_state *s, const enc_mod *m)
{
	if (s->nmods >= ENC_MAX_MODS) {
		/* The oldest modifier gives way; 64 at once does not happen in
		 * play (documented under LIMITS). */
		memmove(&s->mods[0], &s->mods[1], sizeof s->mods[0] * (ENC_MAX_MODS - 1));
		s->nmods--;
	}
	s->mods[s->nmods++] = *m;
}

static void drop_mods(hg_state *s, int (*gone)(const hg_state *, const enc_mod *, const void *),
		      const void *arg)
{
	int k = 0;
	for (int i = 0; i < s->nmods; i++)
		if (!gone(s, &s->mods[i], arg))
			s->mods[k++] = s->mods[i];
	s->nmods = k;
}

int enc_round_over(const hg_state *s, int seat, unsigned turn)
{
	if (s->p[seat].last_start > turn)
		return 1;
	/* A seat out of the game has no next turn: a round is then one turn
	 * of every seat. */
	return s->p[seat].eliminated && s->turn >= turn + (unsigned)s->nseats;
}

int enc_effect_used(const hg_state *s, int seat, int inst)
{
	const enc_inst *c = &s->p[seat].inst[inst];
	return c->used_seat >= 0 && !enc_round_over(s, c->used_seat, c->used_turn);
}

static int gone_turn_end(const hg_state *s, const enc_mod *m, const void *arg)
{
	(void)s;
	(void)arg;
	return m->dur == ENC_DUR_TURN;
}

static int gone_round(const hg_state *s, const enc_mod *m, const void *arg)
{
	(void)arg;
	return m->dur == ENC_DUR_ROUND && enc_round_over(s, m->dur_seat, m->dur_turn);
}

static int gone_war(const hg_state *s, const enc_mod *m, const void *arg)
{
	(void)s;
	return m->dur == ENC_DUR_WAR && m->war == *(const int *)arg;
}

void enc_expire_turn_end(hg_state *s)
{
	drop_mods(s, gone_turn_end, NULL);
	int k = 0;
	for (int i = 0; i < s->nbans; i++)
		if (s->bans[i].turn != s->turn)
			s->bans[k++] = s->bans[i];
	s->nbans = k;
}

/* At the start of a seat's turn its rounds are over (rule 5: "La vuelta
 * ... termina cuando inicia otra vez el mismo turno"). */
void enc_expire_turn_start(hg_state *s, int seat)
{
	drop_mods(s, gone_round, NULL);
	for (int p = 0; p < s->nseats; p++)
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			enc_stack *k = &s->p[p].stacks[st];
			if (k->state == ENC_STACK_BLOCKED &&
			    enc_round_over(s, k->block_seat, k->block_turn))
				k->state = ENC_STACK_FREE;
		}
	for (int i = 0; i < s->nbans; i++)
		if (s->bans[i].seat == seat && s->bans[i].turn == 0)
			s->bans[i].turn = s->turn;
}

void enc_expire_war_end(hg_state *s, int war)
{
	drop_mods(s, gone_war, &war);
}

int enc_banned(const hg_state *s, int seat, enc_forbid what)
{
	for (int i = 0; i < s->nbans; i++)
		if (s->bans[i].seat == seat && s->bans[i].what == (signed char)what &&
		    s->bans[i].turn == s->turn && s->current == seat)
			return 1;
	return 0;
}

static int gone_source(const hg_state *s, const enc_mod *m, const void *arg)
{
	const int *active = arg;	/* [seat][inst] */
	if (m->src_inst < 0)
		return 0;
	const enc_inst *c = &s->p[m->src_seat].inst[m->src_inst];
	if (c->zone == ENC_Z_TOWN)
		return !active[m->src_seat * ENC_MAX_DECK + m->src_inst];
	if (c->zone == ENC_Z_DUEL)
		return 0;
	return 1;
}

/* After every change (rule 2, Costo: "si una carta que tiene costo, pierde
 * sus recursos en ese instante pasa a inactiva, por lo que si estaba
 * atacando vuelve a la mano de su dueño"): effects whose source has gone
 * end, duel cards that no longer activate go home, and the victory
 * conditions are looked at.  Repeats until nothing changes, since each of
 * these can cause another. */
void enc_settle(hg_state *s)
{
	for (int guard = 0; guard < 4 * ENC_MAX_DECK; guard++) {
		int active[ENC_MAX_SEATS * ENC_MAX_DECK];
		int res[ENC_MAX_RES];
		for (int p = 0; p < s->nseats; p++)
			enc_activity(s, p, &active[p * ENC_MAX_DECK], res);
		int before = s->nmods;
		drop_mods(s, gone_source, active);
		int changed = s->nmods != before;
		if (s->war.stage != ENC_WAR_NONE) {
			if (s->war.att_card >= 0) {
				const enc_inst *c = &s->p[s->war.att].inst[s->war.att_card];
				if (c->card >= 0 && !enc_can_activate(s, s->war.att, c->card)) {
					enc_duel_deactivated(s, s->war.att);
					changed = 1;
				}
			}
			if (s->war.stage != ENC_WAR_NONE && s->war.def_card >= 0) {
				const enc_inst *c = &s->p[s->war.def].inst[s->war.def_card];
				if (c->card >= 0 && !enc_can_activate(s, s->war.def, c->card)) {
					enc_duel_deactivated(s, s->war.def);
					changed = 1;
				}
			}
		}
		if (!changed)
			break;
	}
	enc_check_victory(s);
}
