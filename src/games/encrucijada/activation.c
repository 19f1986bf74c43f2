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
static int mod_source_ok(const hg_state *s, const enc_mod *m)
{
	if (m->src_inst < 0)
		return 1;	/* the tower: never leaves */
	const enc_inst *c = &s->p[m->src_seat].inst[m->src_inst];
	if (c->zone == ENC_Z_DUEL)
		return 1;	/* the attacking card: checked when revealed */
	return c->zone == ENC_Z_TOWN;
}

/* No effect on resources.  Copied rather than cleared with memset, which
 * compiles to a `rep stos` here: slower than the copy for 128 bytes, and in
 * enc_settle, run after every action. */
static const enc_res_effects no_res_effects;

/* Adds modifier m's gain or drain to *e, the effects of *n modifiers so
 * far (from none at the first: *e is only written then). */
static inline void add_res_effect(enc_res_effects *e, int *n, const enc_mod *m)
{
	if ((*n)++ == 0)
		*e = no_res_effects;
	if (m->res_amount > 0)
		e->gain[m->res] += m->res_amount;
	else
		e->drain[m->res] -= m->res_amount;
}

/* What the effects in force give and take of the seat's resources, and
 * how many modifiers that is: with none, *e is left alone (most of the
 * time no effect touches resources). */
static inline int resource_effects(const hg_state *s, int seat, enc_res_effects *e)
{
	int n = 0;
	if (s->nmods == 0)
		return 0;
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		if (m->seat == seat && m->res >= 0 && mod_source_ok(s, m))
			add_res_effect(e, &n, m);
	}
	return n;
}

/* One resource after the drains: rule 2, what the Pacificadores provide
 * no effect takes away. */
static inline int drained(int raw, int shield, int drain)
{
	int left = raw - drain;
	int floor = shield < raw ? shield : raw;
	return left > floor ? left : floor;
}

/* Adds what an active card provides to the resources, and brings the
 * resources it changes up to date. */
static inline void provide(const enc_card *c, const enc_res_effects *e,
			   int raw[ENC_MAX_RES], int shield[ENC_MAX_RES], int res[ENC_MAX_RES])
{
	for (int j = 0; j < c->nprovides; j++) {
		int r = c->provides_list[j];
		raw[r] += c->provides[r];
		if (c->shielded)
			shield[r] += c->provides[r];
		res[r] = drained(raw[r], shield[r], e->drain[r]);
	}
}

/* Where fixed_point starts (memo_start): from a memo whose active cards
 * are active still (`from`, or NULL), made under the effects `was` when
 * they are not the ones now (else NULL); without one, only the town cards
 * in `may` can be active.  not_quiet: quiet_growth has said no already. */
typedef struct activity_start {
	const enc_player *from;
	const enc_res_effects *was;
	enc_set may;
	int not_quiet;
} activity_start;

/* Does the town grow from the memo `from` (same effects, a smaller town)
 * without any change to the resources?  So it does when each card new to
 * it either is not covered by the memo's resources (it stays inactive) or
 * provides nothing (it activates, and nothing else can): fixed_point's
 * first pass would find just that, and no second.  Then *active is the
 * memo's active cards and those new ones that activate.  Most cards that
 * join a town do one or the other. */
static int quiet_growth(const hg_state *s, int seat, const enc_player *from, enc_set *active)
{
	const enc_pool *pool = &s->data->pool;
	const enc_player *p = &s->p[seat];
	enc_set grown = from->memo_active & p->in_zone[ENC_Z_TOWN];
	for (enc_set fresh = p->in_zone[ENC_Z_TOWN] & ~from->memo_town; fresh; fresh &= fresh - 1) {
		int i = enc_set_first(fresh);
		const enc_card *c = &pool->cards[p->inst[i].card];
		if (!enc_covers(c, from->memo_res))
			continue;
		if (c->nprovides > 0)
			return 0;
		grown |= (enc_set)1 << i;
	}
	*active = grown;
	return 1;
}

/* The variant [Activation "mutual"] (ruling 3's other reading): the
 * greatest fixed point.  Start with every town card active and take out
 * any whose cost the others and the tower do not cover, until none is
 * taken out.  Covering grows with the set of active cards, so a card taken
 * out is in no fixed point within what is left, and the order does not
 * matter.  A card's own resources never pay for itself here either. */
static enc_set mutual_point(const hg_state *s, int seat, const enc_res_effects *e,
			    int res[ENC_MAX_RES], enc_player *memo)
{
	const enc_pool *pool = &s->data->pool;
	const enc_player *p = &s->p[seat];
	const enc_card *tower = &pool->cards[p->tower];
	int nres = pool->nres;
	int raw[ENC_MAX_RES], shield[ENC_MAX_RES];
	for (int r = 0; r < ENC_MAX_RES; r++) {
		raw[r] = tower->provides[r] + e->gain[r];
		shield[r] = 0;
	}
	enc_set active = p->in_zone[ENC_Z_TOWN];
	for (enc_set town = active; town; town &= town - 1) {
		const enc_card *c = &pool->cards[p->inst[enc_set_first(town)].card];
		for (int j = 0; j < c->nprovides; j++) {
			int r = c->provides_list[j];
			raw[r] += c->provides[r];
			if (c->shielded)
				shield[r] += c->provides[r];
		}
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (enc_set town = active; town; town &= town - 1) {
			int i = enc_set_first(town);
			const enc_card *c = &pool->cards[p->inst[i].card];
			int others[ENC_MAX_RES];	/* the resources less the card's own */
			for (int r = 0; r < nres; r++) {
				int own = c->provides[r], own_shield = c->shielded ? own : 0;
				others[r] = drained(raw[r] - own, shield[r] - own_shield, e->drain[r]);
			}
			for (int r = nres; r < ENC_MAX_RES; r++)
				others[r] = 0;
			if (enc_covers(c, others))
				continue;
			active &= ~((enc_set)1 << i);
			for (int j = 0; j < c->nprovides; j++) {
				int r = c->provides_list[j];
				raw[r] -= c->provides[r];
				if (c->shielded)
					shield[r] -= c->provides[r];
			}
			changed = 1;
		}
	}
	for (int r = 0; r < ENC_MAX_RES; r++)
		res[r] = r < nres ? drained(raw[r], shield[r], e->drain[r]) : 0;
	if (memo) {
		memcpy(memo->memo_raw, raw, sizeof raw);
		memcpy(memo->memo_shield, shield, sizeof shield);
	}
	return active;
}

/* The least fixed point: start with no town card active, add every card
 * whose cost the resources cover, repeat.  A card's own resources never pay
 * for itself (herald-encrucijada(7), ruling 3).  Resources only grow as
 * cards activate, so the order in which the town is looked at does not
 * matter: it is scanned unsorted, and a card that activates adds what it
 * provides at once (the cards after it in the same pass may use it).
 *
 * `from`, when not NULL, is a memo of a smaller town under the same effects
 * (memo_start): cards provide 1 or more (data.c), so resources only grow
 * with the town, and so does the least fixed point; starting from its
 * active cards and what they provide reaches the same one.  The memo's
 * town may also have had cards the town has lost, if none of them gave
 * anything (memo_start): its active cards still in the town are then the
 * least fixed point of what is left of it, with the same resources.
 * The memo may also have been made under other effects, if these give
 * every resource as much or more and drain it as much or less
 * (st->was, the memo's): resources are then as large or larger for any
 * set of cards, so its active cards stay active and the same argument
 * holds, once its gains are swapped for these.
 * Without a memo to start from, st->may is the town cards that can be
 * active at all (memo_start): the others are never looked at.
 * `memo`, when not NULL, receives what the active cards provide
 * (enc_player.memo_raw). */
static enc_set fixed_point(const hg_state *s, int seat, const enc_res_effects *e,
			   const activity_start *st, int res[ENC_MAX_RES], enc_player *memo)
{
	const enc_pool *pool = &s->data->pool;
	const enc_player *p = &s->p[seat];
	const enc_card *tower = &pool->cards[p->tower];
	const enc_player *from = st->from;
	int raw[ENC_MAX_RES], shield[ENC_MAX_RES];
	enc_set active = 0;
	if (s->activation_mutual)
		return mutual_point(s, seat, e, res, memo);
	if (from && !st->was && !st->not_quiet && quiet_growth(s, seat, from, &active)) {
		/* The memo's resources stand; so do its raw and shield. */
		if (res != from->memo_res)
			memcpy(res, from->memo_res, sizeof from->memo_res);
		if (memo && memo != from) {
			memcpy(memo->memo_raw, from->memo_raw, sizeof raw);
			memcpy(memo->memo_shield, from->memo_shield, sizeof shield);
		}
		return active;
	}
	if (from) {
		active = from->memo_active & p->in_zone[ENC_Z_TOWN];
		memcpy(raw, from->memo_raw, sizeof raw);
		memcpy(shield, from->memo_shield, sizeof shield);
		if (st->was)	/* the memo's gains out, these in */
			for (int r = 0; r < ENC_MAX_RES; r++)
				raw[r] += e->gain[r] - st->was->gain[r];
	} else {
		for (int r = 0; r < ENC_MAX_RES; r++) {
			raw[r] = tower->provides[r] + e->gain[r];
			shield[r] = 0;
		}
	}
	/* The town cards not active yet, and their cards. */
	int waiting[ENC_MAX_DECK];
	const enc_card *card[ENC_MAX_DECK];
	int n = 0;
	for (enc_set town = p->in_zone[ENC_Z_TOWN] & ~active & st->may; town; town &= town - 1) {
		int i = enc_set_first(town);
		waiting[n] = i;
		card[n++] = &pool->cards[p->inst[i].card];
	}
	/* Beyond the pool's resources nothing provides or takes: 0. */
	int nres = pool->nres;
	for (int r = nres; r < ENC_MAX_RES; r++)
		res[r] = 0;
	for (int r = 0; r < nres; r++)
		res[r] = drained(raw[r], shield[r], e->drain[r]);
	while (n > 0) {
		int kept = 0, changed = 0;
		for (int k = 0; k < n; k++) {
			const enc_card *c = card[k];
			if (!enc_covers(c, res)) {
				waiting[kept] = waiting[k];
				card[kept++] = c;
				continue;
			}
			active |= (enc_set)1 << waiting[k];
			changed = 1;
			provide(c, e, raw, shield, res);
		}
		n = kept;
		if (!changed)
			break;
	}
	if (memo) {
		memcpy(memo->memo_raw, raw, sizeof raw);
		memcpy(memo->memo_shield, shield, sizeof shield);
	}
	return active;
}

/* Was the memo made under these effects (n of them, resource_effects)? */
static int memo_same_effects(const enc_player *p, int n, const enc_res_effects *e)
{
	return p->memo_neffects == n && (n == 0 || memcmp(&p->memo_effects, e, sizeof *e) == 0);
}

/* Does the memo hold the activity for this town and these effects? */
static int memo_holds(const enc_player *p, int n, const enc_res_effects *e)
{
	return p->memo_town == p->in_zone[ENC_Z_TOWN] && memo_same_effects(p, n, e);
}

/* How the effects x stand to y over the pool's nres resources (no effect
 * touches another): EFFECTS_MORE when x gives each as much as y or more
 * and drains it as much or less, EFFECTS_LESS the other way round (both
 * when they are alike).  Under EFFECTS_MORE any set of active cards has
 * as many resources as under y, or more: drained() grows with the raw
 * amount and shrinks with the drain. */
enum { EFFECTS_MORE = 1, EFFECTS_LESS = 2 };

static int compare_effects(const enc_res_effects *x, const enc_res_effects *y, int nres)
{
	int more = 1, less = 1;
	for (int r = 0; r < nres; r++) {
		more &= (x->gain[r] >= y->gain[r]) & (x->drain[r] <= y->drain[r]);
		less &= (x->gain[r] <= y->gain[r]) & (x->drain[r] >= y->drain[r]);
	}
	return more * EFFECTS_MORE | less * EFFECTS_LESS;
}

/* Have the cards the town lost since the memo (if any) given nothing to
 * the resources: inactive ones, or active ones that provide nothing? */
static int lost_gave_nothing(const hg_state *s, const enc_player *p)
{
	for (enc_set lost = p->memo_town & ~p->in_zone[ENC_Z_TOWN] & p->memo_active; lost;
	     lost &= lost - 1) {
		int card = p->inst[enc_set_first(lost)].card;
		if (card < 0 || s->data->pool.cards[card].nprovides > 0)
			return 0;
	}
	return 1;
}

/* Where fixed_point may start, for the town as it is under the effects e
 * (n of them, resource_effects).  From the memo, when the town has only
 * grown since (a card put down or shown), or has lost only cards that gave
 * nothing to the resources (inactive ones, or active ones that provide
 * nothing: a card destroyed or discarded), under the same effects or ones
 * that give as much or more (a gain begins, a drain ends).  Else, when
 * the town has gained no card and the effects give as much or less (a
 * gain ends, a drain begins, a card that provided left): the least fixed
 * point can only have shrunk, so only the memo's active cards may be
 * active.  Else from nothing. */
static ENC_NOINLINE void memo_start(const hg_state *s, const enc_player *p, int n,
				    const enc_res_effects *e, activity_start *st)
{
	st->from = NULL;
	st->was = NULL;
	st->may = ~(enc_set)0;
	st->not_quiet = 0;
	if (p->memo_town == ENC_NO_TOWN || s->activation_mutual)
		return;	/* the memo's shortcuts are the least fixed point's */
	const enc_res_effects *was = p->memo_neffects ? &p->memo_effects : &no_res_effects;
	int same = memo_same_effects(p, n, e);
	int how = same ? EFFECTS_MORE | EFFECTS_LESS :
		  compare_effects(n ? e : &no_res_effects, was, s->data->pool.nres);
	if ((how & EFFECTS_MORE) && lost_gave_nothing(s, p)) {
		st->from = p;
		st->was = same ? NULL : was;
		return;
	}
	if ((how & EFFECTS_LESS) && (p->in_zone[ENC_Z_TOWN] & ~p->memo_town) == 0)
		st->may = p->memo_active;
}

/* A seat's activity follows from its town and the effects on its
 * resources alone (the cards of the town's instances are known and stay
 * what they are): enc_settle remembers it in enc_player.memo_*. */
enc_set enc_activity(const hg_state *s, int seat, int res[ENC_MAX_RES])
{
	const enc_player *p = &s->p[seat];
	enc_res_effects e;
	int n = resource_effects(s, seat, &e);
	if (memo_holds(p, n, &e)) {
		memcpy(res, p->memo_res, sizeof p->memo_res);
		return p->memo_active;
	}
	if (n == 0)
		e = no_res_effects;
	activity_start st;
	memo_start(s, p, n, &e, &st);
	return fixed_point(s, seat, &e, &st, res, NULL);
}

uint64_t hg_enc_activity(const hg_state *s, int seat, int res[ENC_MAX_RES])
{
	return enc_activity(s, seat, res);
}

int hg_enc_activity_start(const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	enc_res_effects e;
	int n = resource_effects(s, seat, &e);
	if (n == 0)
		e = no_res_effects;
	if (memo_holds(p, n, &e))
		return 0;
	activity_start st;
	memo_start(s, p, n, &e, &st);
	return st.from ? (st.was ? 2 : 1) : st.may != ~(enc_set)0 ? 3 : 4;
}

/* A new memo of the seat's activity, for its town as it is under the
 * effects e (n of them), worked out from where memo_start says.  It may
 * change the seat's resources: when one grows, Gobernar is looked at
 * again (enc_check_victory). */
static void remember_activity(hg_state *s, int seat, int n, const enc_res_effects *e,
			      const activity_start *st)
{
	enc_player *p = &s->p[seat];
	int before[ENC_MAX_RES];
	memcpy(before, p->memo_res, sizeof before);
	p->memo_active = fixed_point(s, seat, n ? e : &no_res_effects, st, p->memo_res, p);
	p->memo_town = p->in_zone[ENC_Z_TOWN];
	p->memo_neffects = n;
	if (n && e != &p->memo_effects)	/* with none, memo_same_effects does not look at them */
		p->memo_effects = *e;
	/* Gobernar is reached only by a resource that grows: one that
	 * shrinks makes no winner where there was none. */
	if (memcmp(before, p->memo_res, sizeof before) != 0)
		for (int r = 0; r < s->data->pool.nres; r++)
			if (p->memo_res[r] > before[r]) {
				s->governed_checked = 0;
				break;
			}
}

/* resource_effects for every seat at once, in one pass over the
 * modifiers (settle_loop looks at every seat): n[seat] of them, e[seat]
 * set where there are any. */
static void all_resource_effects(const hg_state *s, enc_res_effects e[ENC_MAX_SEATS],
				 int n[ENC_MAX_SEATS])
{
	for (int p = 0; p < s->nseats; p++)
		n[p] = 0;
	for (int i = 0; i < s->nmods; i++) {
		const enc_mod *m = &s->mods[i];
		int seat = m->seat;
		if (m->res >= 0 && seat >= 0 && seat < s->nseats && mod_source_ok(s, m))
			add_res_effect(&e[seat], &n[seat], m);
	}
}

/* enc_activity under the effects e (n of them, resource_effects),
 * remembered; *res is set to the remembered resources. */
static enc_set settle_activity(hg_state *s, int seat, int n, const enc_res_effects *e,
			       const int **res)
{
	enc_player *p = &s->p[seat];
	if (!memo_holds(p, n, e)) {
		activity_start st;
		memo_start(s, p, n, e, &st);
		remember_activity(s, seat, n, e, &st);
	}
	*res = p->memo_res;
	return p->memo_active;
}

void enc_resources(const hg_state *s, int seat, int out[ENC_MAX_RES])
{
	enc_activity(s, seat, out);
}

enc_set enc_active_set(const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	enc_res_effects e;
	int n = resource_effects(s, seat, &e);
	if (memo_holds(p, n, &e))
		return p->memo_active;	/* most of the time: no copy of the resources */
	int res[ENC_MAX_RES];
	return enc_activity(s, seat, res);
}

int enc_is_active(const hg_state *s, int seat, int inst)
{
	const enc_inst *c = &s->p[seat].inst[inst];
	if (c->zone == ENC_Z_TOWN)
		return (enc_active_set(s, seat) >> inst) & 1;
	if (c->card < 0)
		return 0;
	return enc_can_activate(s, seat, c->card);
}

/* Do the resources `res` cover the card's cost (rule 2, Costo)? */
static int covers(const hg_state *s, const int res[ENC_MAX_RES], int card)
{
	return enc_covers(&s->data->pool.cards[card], res);
}

/* A card outside the town (revealed in battle, turned up) activates when
 * the town and the tower cover its cost. */
int enc_can_activate(const hg_state *s, int seat, int card)
{
	int res[ENC_MAX_RES];
	enc_resources(s, seat, res);
	return covers(s, res, card);
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
	case ENC_SCOPE_ATTACKING:	/* either revealed card: "se Atacan" */
		return enc_duel_card(s, seat) == inst;
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
		if (m->value && mod_reaches(s, m, seat, inst) && mod_source_ok(s, m))
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
		if (m->marks && mod_reaches(s, m, seat, inst) && mod_source_ok(s, m))
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
	s->mods_settled = 0;
}

static void drop_mods(hg_state *s, int (*gone)(const hg_state *, const enc_mod *, const void *),
		      const void *arg)
{
	int k = 0;
	for (int i = 0; i < s->nmods; i++)
		if (!gone(s, &s->mods[i], arg)) {
			if (k != i)	/* most of the time none has gone */
				s->mods[k] = s->mods[i];
			k++;
		}
	if (k != s->nmods)
		s->mods_settled = 0;
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

int hg_enc_effect_used(const hg_state *s, int seat, int inst)
{
	return enc_effect_used(s, seat, inst);
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
	int still = 0;
	for (int p = 0; s->stacks_blocked && p < s->nseats; p++)
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			enc_stack *k = &s->p[p].stacks[st];
			if (k->state != ENC_STACK_BLOCKED)
				continue;
			if (enc_round_over(s, k->block_seat, k->block_turn))
				k->state = ENC_STACK_FREE;
			else
				still = 1;
		}
	s->stacks_blocked = still;
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
	const enc_set *active = arg;	/* by seat */
	if (m->src_inst < 0)
		return 0;
	const enc_inst *c = &s->p[m->src_seat].inst[m->src_inst];
	if (c->zone == ENC_Z_TOWN)
		return !((active[(int)m->src_seat] >> m->src_inst) & 1);
	if (c->zone == ENC_Z_DUEL)
		return 0;
	return 1;
}

/* What both shortcuts of enc_settle ask first: no duel card in play, and
 * the modifiers as the last settling left them (or none). */
static inline int duel_and_mods_quiet(const hg_state *s)
{
	if (s->war.stage != ENC_WAR_NONE && (s->war.att_card >= 0 || s->war.def_card >= 0))
		return 0;
	return s->mods_settled || s->nmods == 0;
}

/* ... and of each seat: its duel zone as the last settling left it, or,
 * the modifiers not settled (there are none), no effect remembered. */
static inline int seat_duel_quiet(const hg_state *s, const enc_player *pl)
{
	return s->mods_settled ? pl->settled_duel == pl->in_zone[ENC_Z_DUEL] :
	       pl->memo_neffects == 0;
}

/* Is there nothing to settle?  settle_loop reads the towns, the modifiers,
 * which of their sources are in a town or a duel, and the duel cards.
 * With no duel card and every seat's memo made for its town as it is, it
 * finds every memo good and changes nothing when
 *   - no modifier is in force (none ends, none touches resources), or
 *   - the modifiers and the duel zones are as the last enc_settle that
 *     found nothing to change left them (hg_state.mods_settled): the
 *     effects on resources and the sources that hold are then as they
 *     were.
 * Most actions (a draw, a hidden card put down, shown or moved) leave the
 * state so. */
static inline int nothing_to_settle(const hg_state *s)
{
	if (!duel_and_mods_quiet(s))
		return 0;
	if (s->mods_settled && s->zones_settled)
		return 1;	/* the loop below would find every seat as it was left */
	for (int p = 0; p < s->nseats; p++) {
		const enc_player *pl = &s->p[p];
		if (pl->memo_town != pl->in_zone[ENC_Z_TOWN] || !seat_duel_quiet(s, pl))
			return 0;
	}
	return 1;
}

/* What enc_settle does when there is nothing to settle: the victory
 * checks, with the resources the memos hold. */
static void settled_already(hg_state *s)
{
	if (s->over || (!s->loss_unchecked && s->governed_checked))
		return;
	const int *res[ENC_MAX_SEATS];
	for (int p = 0; p < s->nseats; p++)
		res[p] = s->p[p].memo_res;
	enc_check_victory(s, res);
}

/* Have the towns only grown (a card put down visible or shown, most of
 * the changes to a town) since enc_settle last found nothing to change,
 * with no duel card?  The conditions are nothing_to_settle's, except that
 * a town may hold cards its memo_town lacks (none fewer).  Then the loop
 * of enc_settle would find, in its first pass:
 *   - every seat's effects on resources as its memo's: the modifiers are
 *     the same (mods_settled) and so are the sources that hold, which
 *     were all in a town or a duel zone (any other would have ended) and
 *     still are there; or, with no modifier, none, as the memos' were;
 *   - each grown town's memo a start for its new one (memo_start: same
 *     effects, no card lost), and more active cards, none fewer: no
 *     modifier's source deactivates, none ends, and with no duel card
 *     none goes home; nothing has changed, and the loop ends.
 * settle_grown_towns does just that, without the look at the modifiers
 * for each seat (test-enc.c compares it with the loop). */
static inline int towns_only_grew(const hg_state *s)
{
	if (!duel_and_mods_quiet(s))
		return 0;
	for (int p = 0; p < s->nseats; p++) {
		const enc_player *pl = &s->p[p];
		if (pl->memo_town == ENC_NO_TOWN || (pl->memo_town & ~pl->in_zone[ENC_Z_TOWN]) != 0 ||
		    !seat_duel_quiet(s, pl))
			return 0;
	}
	return 1;
}

/* The memo of a seat whose town has only grown since it was made, under
 * the same effects (settle_grown_towns). */
static void grow_memo(hg_state *s, int seat)
{
	enc_player *pl = &s->p[seat];
	enc_set active;
	if (s->activation_mutual) {
		activity_start fresh = { NULL, NULL, ~(enc_set)0, 1 };
		remember_activity(s, seat, pl->memo_neffects, &pl->memo_effects, &fresh);
		return;
	}
	if (quiet_growth(s, seat, pl, &active)) {
		/* Most new town cards: the resources stand, and with them all
		 * that remember_activity would keep of the memo but its town
		 * and its active cards. */
		pl->memo_active = active;
		pl->memo_town = pl->in_zone[ENC_Z_TOWN];
		return;
	}
	activity_start st = { pl, NULL, ~(enc_set)0, 1 };	/* same effects, not quiet */
	remember_activity(s, seat, pl->memo_neffects, &pl->memo_effects, &st);
}

/* enc_settle when the towns have only grown (towns_only_grew): the grown
 * towns' memos, the flags the loop leaves when it finds nothing to
 * change, and the victory checks with the fresh resources. */
static ENC_NOINLINE void settle_grown_towns(hg_state *s)
{
	for (int p = 0; p < s->nseats; p++) {
		enc_player *pl = &s->p[p];
		if (pl->memo_town != pl->in_zone[ENC_Z_TOWN])
			grow_memo(s, p);
		pl->settled_duel = pl->in_zone[ENC_Z_DUEL];
	}
	s->mods_settled = 1;
	s->zones_settled = 1;
	settled_already(s);
}

/* The loop of enc_settle, in a function of its own: the shortcut (most
 * calls) then does not pay for its frame. */
static ENC_NOINLINE void settle_loop(hg_state *s)
{
	/* Each seat's resources, while they describe the state as it stands
	 * (fresh): the duel and victory checks then need not work them out
	 * again. */
	const int *res[ENC_MAX_SEATS];
	int fresh = 0;
	s->mods_settled = 0;
	s->zones_settled = 0;
	for (int guard = 0; guard < 4 * ENC_MAX_DECK; guard++) {
		enc_set active[ENC_MAX_SEATS];
		enc_res_effects e[ENC_MAX_SEATS];
		int n[ENC_MAX_SEATS];
		all_resource_effects(s, e, n);
		for (int p = 0; p < s->nseats; p++)
			active[p] = settle_activity(s, p, n[p], &e[p], &res[p]);
		int before = s->nmods;
		drop_mods(s, gone_source, active);
		int changed = s->nmods != before;
		fresh = !changed;
		if (s->war.stage != ENC_WAR_NONE) {
			if (s->war.att_card >= 0) {
				int seat = s->war.att;
				const enc_inst *c = &s->p[seat].inst[s->war.att_card];
				if (c->card >= 0 && !(fresh ? covers(s, res[seat], c->card) :
						      enc_can_activate(s, seat, c->card))) {
					enc_duel_deactivated(s, seat);
					changed = 1;
					fresh = 0;
				}
			}
			if (s->war.stage != ENC_WAR_NONE && s->war.def_card >= 0) {
				int seat = s->war.def;
				const enc_inst *c = &s->p[seat].inst[s->war.def_card];
				if (c->card >= 0 && !(fresh ? covers(s, res[seat], c->card) :
						      enc_can_activate(s, seat, c->card))) {
					enc_duel_deactivated(s, seat);
					changed = 1;
					fresh = 0;
				}
			}
		}
		if (!changed) {
			s->mods_settled = 1;
			s->zones_settled = 1;
			for (int p = 0; p < s->nseats; p++)
				s->p[p].settled_duel = s->p[p].in_zone[ENC_Z_DUEL];
			break;
		}
	}
	/* Nothing rule 4 looks at may have changed (enc_check_victory would
	 * return at once): most actions. */
	if (s->over || (fresh && !s->loss_unchecked && s->governed_checked))
		return;
	enc_check_victory(s, fresh ? res : NULL);
}

/* After every change (rule 2, Costo: "si una carta que tiene costo, pierde
 * sus recursos en ese instante pasa a inactiva, por lo que si estaba
 * atacando vuelve a la mano de su dueño"): effects whose source has gone
 * end, duel cards that no longer activate go home, and the victory
 * conditions are looked at.  Repeats until nothing changes, since each of
 * these can cause another. */
void enc_settle(hg_state *s)
{
	if (nothing_to_settle(s))
		settled_already(s);
	else if (towns_only_grew(s))
		settle_grown_towns(s);
	else
		settle_loop(s);
}

int hg_enc_settle_skips(const hg_state *s)
{
	return nothing_to_settle(s);
}

int hg_enc_settle_path(const hg_state *s)
{
	return nothing_to_settle(s) ? 1 : towns_only_grew(s) ? 2 : 0;
}

void hg_enc_settle_with(hg_state *s, int may_skip)
{
	if (may_skip)
		enc_settle(s);
	else
		settle_loop(s);
}
