/* effect-run.c - using effects (rule 2, Efectos; rule 6.C and 6.E):
 * which card may be used when, the choices a use names, the rule that a
 * step which cannot be done voids the whole effect, the exchange that opens
 * when an effect names another player, and priority by suit (rule 2, El
 * Palo; Clase: EVENTO counts one level higher and wins a tie). */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

/* rule 2, El Palo: oro first, then copa, basto, espada; EVENTO one level
 * higher (rule 2, Clase). */
int enc_priority(const enc_card *c)
{
	static const int level[ENC_NSUITS] = { 4, 3, 2, 1 };
	return level[c->suit] + (c->evento ? 1 : 0);
}

static const enc_card *use_card(const hg_state *s, const enc_use *u)
{
	return &s->data->pool.cards[u->card];
}

/* Does step st take a group of chosen items? */
static int step_takes_choice(const enc_step *st)
{
	switch (st->kind) {
	case ENC_STEP_DISCARD:
	case ENC_STEP_DESTROY:
	case ENC_STEP_DRAW:
		return 1;
	case ENC_STEP_RESOURCE:
	case ENC_STEP_DRAIN:
		return st->res < 0;
	default:
		return 0;
	}
}

static int effect_groups(const enc_effect *e)
{
	int n = 0;
	for (size_t i = 0; i < e->nsteps; i++)
		n += step_takes_choice(&e->steps[i]);
	return n;
}

/* How a step reads in a message: "discard 2 from your table". */
static void step_text(const hg_state *s, const enc_step *st, hg_buf *b)
{
	static const char *const from[] = { "table", "town", "hidden cards", "hand" };
	hg_buf_clear(b);
	switch (st->kind) {
	case ENC_STEP_DISCARD:
		hg_buf_printf(b, "discard %d from your %s", st->count, from[st->from]);
		break;
	case ENC_STEP_DESTROY:
		hg_buf_printf(b, "destroy %d of the target's town", st->count);
		break;
	case ENC_STEP_DRAW:
		hg_buf_printf(b, "draw %d", st->count);
		break;
	case ENC_STEP_RESOURCE:
	case ENC_STEP_DRAIN:
		hg_buf_printf(b, "%s %d %s", st->kind == ENC_STEP_DRAIN ? "drain" : "gain",
			      st->amount, st->res >= 0 ? s->data->pool.res[st->res].id : "of a resource");
		break;
	default:
		hg_buf_puts(b, enc_step_name(st->kind));
		break;
	}
}

/* ------------------------------------------------------ running steps */
typedef struct run_ctx {
	hg_buf why;		/* why a step cannot be done, translated */
	int why_has_rule;	/* the reason names its own rule */
	int step;		/* which */
	/* Make the steps' checks only, and change nothing: for an effect that
	 * cannot fail after a change (fails_after_change), whose one step
	 * checks all it needs before it changes anything. */
	int check_only;
	/* Where a step's choices that do not fit go (ruling 16: each step
	 * takes its choices when the effect reaches it); NULL when the effect
	 * resolves from an exchange, where such a step only voids it. */
	hg_diags *d;
	int choice_error;	/* a diagnostic was added to d */
	hg_diags quiet;		/* what naming an unseen card reports, without d */
} run_ctx;

static int bind_step_cards(hg_state *s, enc_use *u, int group, const enc_step *st,
			   int step, run_ctx *rc);

static int fail(run_ctx *rc, int step, const char *fmt, ...) HG_PRINTF(3, 4);
static int fail(run_ctx *rc, int step, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_buf_clear(&rc->why);
	hg_buf_vprintf(&rc->why, _(fmt), ap);
	rc->why_has_rule = strstr(fmt, "(rule ") != NULL;
	va_end(ap);
	rc->step = step;
	return -1;
}

/* The k-th choice of a group, and their count; a card named as drawn
 * (enc_item_drawn) goes with its pile, not counted. */
static const enc_item *group_item(const enc_use *u, int group, int k)
{
	for (int i = 0; i < u->nitems; i++)
		if (u->items[i].group == group && !enc_item_drawn(u->items, i) && k-- == 0)
			return &u->items[i];
	return NULL;
}

static int group_size(const enc_use *u, int group)
{
	int n = 0;
	for (int i = 0; i < u->nitems; i++)
		n += u->items[i].group == group && !enc_item_drawn(u->items, i);
	return n;
}

/* The card named as drawn from the pile item `pile` (a choice of u), or
 * NULL when none is named. */
static const enc_item *drawn_of(const enc_use *u, const enc_item *pile)
{
	int i = (int)(pile - u->items) + 1;
	return i < u->nitems && enc_item_drawn(u->items, i) && u->items[i].kind == ENC_ITEM_CARD ?
	       &u->items[i] : NULL;
}

/* Is an item's bound card still where it was chosen? */
static int still_there(const hg_state *s, int seat, const enc_item *it, int zone)
{
	if (it->inst < 0)
		return 0;
	const enc_inst *c = &s->p[seat].inst[it->inst];
	if (zone == -1)
		return c->zone == ENC_Z_TOWN || c->zone == ENC_Z_STACK;
	return c->zone == zone;
}

static int apply_outcomes(hg_state *s, const enc_use *u, run_ctx *rc, int step)
{
	for (int i = 0; i < u->nout; i++) {
		const enc_outcome *o = &u->out[i];
		switch (o->kind) {
		case ENC_OUT_NOTHING:
			break;
		case ENC_OUT_DISCARD:
			if (!still_there(s, o->seat, &o->item, -1))
				return fail(rc, step, "the card the outcome discards is not on %s's table",
					    enc_seat_name(o->seat));
			if (!rc->check_only)
				enc_to_zone(s, o->seat, o->item.inst, ENC_Z_DISCARD);
			break;
		case ENC_OUT_TOWER:
			if (rc->check_only)
				break;
			enc_tower_of(s, o->seat)->resistance += o->amount;
			s->loss_unchecked = 1;
			break;
		case ENC_OUT_WEAR:
			if (s->war.stage == ENC_WAR_NONE ||
			    (o->seat != s->war.att && o->seat != s->war.def))
				return fail(rc, step, "%s is in no war", enc_seat_name(o->seat));
			if (!rc->check_only)
				s->p[o->seat].wear += o->amount;
			break;
		}
	}
	return 0;
}

/* A card named as drawn by an effect must be the pile's top: with a Seed
 * the card dealt there (enc.card-mismatch, as for a draw of phase A);
 * without one, a card the pile can still hold (enc_identify).  0, or -1
 * with the diagnostic in rc->d (none when the effect resolves from an
 * exchange: it is void). */
static int name_drawn(hg_state *s, int seat, int pile, int top, const enc_item *named,
		      run_ctx *rc)
{
	int card = s->p[seat].inst[top].card;
	if (card >= 0 && card != named->card) {
		if (rc->d) {
			hg_diag *dg = hg_diag_add(rc->d, HG_ERROR, named->where, "enc.card-mismatch",
						  "the card drawn from pile %d is '%s', not '%s' (rule 1, B: the piles as dealt)",
						  pile, enc_card_id(s, card), enc_card_id(s, named->card));
			if (s->seeded)
				hg_diag_note(dg, "the piles follow from the Seed tag '%s'", s->sh->seed);
			rc->choice_error = 1;
		}
		return -1;
	}
	if (card >= 0 || rc->check_only)
		return 0;
	if (enc_identify(s, seat, top, named->card, named->where, rc->d ? rc->d : &rc->quiet) != 0) {
		rc->choice_error = rc->d != NULL;
		return -1;
	}
	return 0;
}

/* Runs the effect's steps in order on s.  Any step that cannot be done
 * fails the whole effect (rule 2, Efectos: "si una de las partes del efecto
 * no se puede realizar o falta algo, entonces nada del efecto se puede
 * hacer"): the caller undoes a failed run (or, for an illegal action,
 * leaves the spoiled position to be freed).  Each step makes all its
 * checks before its first change, but for a draw of several cards and an
 * outcome of several parts (fails_after_change); with rc->check_only it
 * makes the checks alone. */
static int run_steps(hg_state *s, enc_use *u, run_ctx *rc)
{
	const enc_effect *e = use_card(s, u)->effect;
	int group = 0, outcomes_done = 0;
	rc->choice_error = 0;
	for (int i = 0; i < u->nitems; i++)
		if (u->items[i].kind != ENC_ITEM_NUMBER && u->items[i].kind != ENC_ITEM_RESOURCE)
			u->items[i].inst = -1;	/* bound at their step */
	for (size_t i = 0; i < e->nsteps; i++) {
		const enc_step *st = &e->steps[i];
		int g = step_takes_choice(st) ? group++ : -1;
		int step = (int)i;
		if ((st->kind == ENC_STEP_DISCARD || st->kind == ENC_STEP_DESTROY) &&
		    bind_step_cards(s, u, g, st, step, rc) != 0)
			return -1;
		switch (st->kind) {
		case ENC_STEP_DISCARD: {
			int zone = st->from == ENC_FROM_HAND ? ENC_Z_HAND :
				   st->from == ENC_FROM_TOWN ? ENC_Z_TOWN :
				   st->from == ENC_FROM_HIDDEN ? ENC_Z_STACK : -1;
			for (int k = 0; k < st->count; k++) {
				const enc_item *it = group_item(u, g, k);
				if (!it || !still_there(s, u->seat, it, zone))
					return fail(rc, step, "a card it discards is gone");
			}
			if (rc->check_only)
				break;
			for (int k = 0; k < st->count; k++)
				enc_to_zone(s, u->seat, group_item(u, g, k)->inst, ENC_Z_DISCARD);
			break;
		}
		case ENC_STEP_DESTROY:
			for (int k = 0; k < st->count; k++) {
				const enc_item *it = group_item(u, g, k);
				if (!it || u->target < 0 || !still_there(s, u->target, it, ENC_Z_TOWN))
					return fail(rc, step, "a card it destroys is gone");
				const enc_card *c = enc_card_of(s, u->target, it->inst);
				if (st->max_value >= 0 && enc_value(s, u->target, it->inst) > st->max_value)
					return fail(rc, step, "'%s' is worth more than %d now", c->id,
						    st->max_value);
			}
			if (rc->check_only)
				break;
			for (int k = 0; k < st->count; k++)
				enc_to_zone(s, u->target, group_item(u, g, k)->inst, ENC_Z_DISCARD);
			break;
		case ENC_STEP_DRAW:
			for (int k = 0; k < st->count; k++) {
				const enc_item *it = group_item(u, g, k);
				int top = it ? enc_pile_top(s, u->seat, it->number - 1) : -1;
				if (top < 0)
					return fail(rc, step, "pile %d is empty", it ? it->number : 0);
				const enc_item *named = drawn_of(u, it);
				if (named && name_drawn(s, u->seat, it->number, top, named, rc) != 0)
					return fail(rc, step, "the card drawn is not the one named");
				if (!rc->check_only)
					enc_draw_card(s, u->seat, it->number - 1);
			}
			break;
		case ENC_STEP_BOOST: {
			enc_mod m;
			memset(&m, 0, sizeof m);
			m.seat = (signed char)(st->who == ENC_WHO_TARGET ? u->target : u->seat);
			m.src_seat = u->seat;
			m.src_inst = u->src == ENC_SRC_TOWER ? -1 : u->inst;
			m.scope = (signed char)st->scope;
			m.inst = u->inst;
			if (st->scope == ENC_SCOPE_SOURCE && u->src == ENC_SRC_TOWER)
				return fail(rc, step, "a tower is no card to boost");
			m.value = (short)st->amount;
			m.marks = (unsigned char)st->grant;
			m.res = -1;
			m.dur = (signed char)st->duration;
			m.dur_seat = (signed char)s->current;
			m.dur_turn = s->turn;
			m.war = s->war.id;
			if (st->duration == ENC_DUR_WAR && s->war.stage == ENC_WAR_NONE)
				return fail(rc, step, "it lasts a war and there is none");
			if (!rc->check_only)
				enc_mod_add(s, &m);
			break;
		}
		case ENC_STEP_WEAR: {
			if (s->war.stage == ENC_WAR_NONE ||
			    (u->seat != s->war.att && u->seat != s->war.def))
				return fail(rc, step, "%s is in no war", enc_seat_name(u->seat));
			if (rc->check_only)
				break;
			int other = u->seat == s->war.att ? s->war.def : s->war.att;
			s->p[st->who == ENC_WHO_SELF ? u->seat : other].wear += st->amount;
			break;
		}
		case ENC_STEP_TOWER: {
			int seat = st->who == ENC_WHO_TARGET ? u->target : u->seat;
			if (seat < 0)
				return fail(rc, step, "it names no player");
			if (rc->check_only)
				break;
			enc_player *p = enc_tower_of(s, seat);
			/* No cap: the text sets none (ruling 9). */
			p->resistance += st->amount;
			s->loss_unchecked = 1;
			break;
		}
		case ENC_STEP_RESOURCE:
		case ENC_STEP_DRAIN: {
			int res = st->res;
			if (res < 0) {
				const enc_item *it = group_item(u, g, 0);
				if (!it)
					return fail(rc, step, "it names no resource");
				res = it->number;
			}
			enc_mod m;
			memset(&m, 0, sizeof m);
			m.seat = (signed char)(st->kind == ENC_STEP_DRAIN ? u->target : u->seat);
			m.src_seat = u->seat;
			m.src_inst = u->src == ENC_SRC_TOWER ? -1 : u->inst;
			m.scope = ENC_SCOPE_ALL;
			m.res = (signed char)res;
			m.res_amount = (short)(st->kind == ENC_STEP_DRAIN ? -st->amount : st->amount);
			m.dur = (signed char)st->duration;
			m.dur_seat = (signed char)s->current;
			m.dur_turn = s->turn;
			m.war = s->war.id;
			if (st->duration == ENC_DUR_WAR && s->war.stage == ENC_WAR_NONE)
				return fail(rc, step, "it lasts a war and there is none");
			if (!rc->check_only)
				enc_mod_add(s, &m);
			break;
		}
		case ENC_STEP_FORBID: {
			int seat = st->who == ENC_WHO_TARGET ? u->target : u->seat;
			if (s->nbans >= ENC_MAX_BANS)
				return fail(rc, step, "too many restrictions in force");
			if (rc->check_only)
				break;
			enc_ban *b = &s->bans[s->nbans++];
			b->seat = (signed char)seat;
			b->what = (signed char)st->forbid;
			/* "Los efectos se acomodan siempre al turno en cuestión": this
			 * turn if it is the player's, else its next one. */
			b->turn = s->current == seat && s->phase != ENC_PH_SETUP ? s->turn : 0;
			break;
		}
		case ENC_STEP_ATTACK_AGAIN:
			if (u->src != ENC_SRC_ATTACKER || s->war.stage == ENC_WAR_NONE ||
			    u->seat != s->war.att || s->war.att_card != u->inst)
				return fail(rc, step, "only the card attacking now attacks again");
			if (s->war.stage == ENC_WAR_INVASION && s->war.target == ENC_TGT_TOWER)
				return fail(rc, step, "no effect makes a card attack a tower again (rule 6.D3)");
			if (!rc->check_only)
				s->war.again = 1;
			break;
		case ENC_STEP_UNEXPRESSED:
			if (!outcomes_done && apply_outcomes(s, u, rc, step) != 0)
				return -1;
			outcomes_done = 1;
			break;
		}
	}
	return 0;
}

/* Can the effect fail after its steps have changed something?  With one
 * step, which checks all before it changes anything (run_steps), it
 * cannot: a failure leaves the position as it was, and a run of its
 * checks alone tells whether it can be done. */
static int fails_after_change(const enc_effect *e, const enc_use *u)
{
	if (e->nsteps != 1)
		return e->nsteps > 1;
	const enc_step *st = &e->steps[0];
	if (st->kind == ENC_STEP_DRAW)
		return st->count > 1;
	/* Naming an unseen card of the hand is a change, which a later
	 * card of the same step may fail after (bind_step_cards). */
	if (st->kind == ENC_STEP_DISCARD && st->from == ENC_FROM_HAND)
		return st->count > 1;
	if (st->kind == ENC_STEP_UNEXPRESSED)
		return u->nout > 1;
	return 0;
}

/* ------------------------------------------------------ binding choices */
static void bind_error(const hg_state *s, const enc_use *u, const enc_step *st, hg_pos at,
		       hg_diags *d, const char *fmt, ...) HG_PRINTF(6, 7);
static void bind_error(const hg_state *s, const enc_use *u, const enc_step *st, hg_pos at,
		       hg_diags *d, const char *fmt, ...)
{
	if (!d)
		return;	/* resolving from an exchange: the effect is void */
	hg_buf msg, stp;
	hg_buf_init(&msg);
	hg_buf_init(&stp);
	va_list ap;
	va_start(ap, fmt);
	hg_buf_vprintf(&msg, _(fmt), ap);
	va_end(ap);
	step_text(s, st, &stp);
	hg_diag *dg = hg_diag_add(d, HG_ERROR, at, "enc.effect-choice",
				  "%s, for '%s' of '%s' (rule 2, Efectos)", msg.data, stp.data,
				  use_card(s, u)->id);
	enc_rests_on(dg, s->data, u->card, "effect");
	hg_buf_free(&msg);
	hg_buf_free(&stp);
}

/* Instances are numbered per seat: one of another seat with the same
 * number is another card. */
static int chosen_already(const enc_use *u, int upto, int seat, int seat_inst)
{
	for (int i = 0; i < upto; i++)
		if (u->items[i].inst == seat_inst && u->items[i].owner == seat)
			return 1;
	return 0;
}

/* The i-th item names a card of `seat`: in the town, a hidden stack or the
 * hand, as the step allows.  Sets its instance. */
enum { Z_TOWN = 1, Z_HIDDEN = 2, Z_HAND = 4 };	/* where bind_card looks */

static int bind_card(hg_state *s, enc_use *u, int i, int seat, const enc_step *st,
		     int zones, hg_diags *d)
{
	enc_item *it = &u->items[i];
	if (it->kind == ENC_ITEM_REF) {
		if (!(zones & Z_HIDDEN)) {
			bind_error(s, u, st, it->where, d, "a hidden card does not count here");
			return -1;
		}
		int inst = enc_ref_inst(s, seat, it);
		if (inst < 0) {
			bind_error(s, u, st, it->where, d, "%s has no hidden card there it may use",
				   enc_seat_name(seat));
			return -1;
		}
		if (chosen_already(u, i, seat, inst)) {
			bind_error(s, u, st, it->where, d, "that card is chosen twice");
			return -1;
		}
		it->inst = (short)inst;
		it->owner = (signed char)seat;
		return 0;
	}
	if (it->kind == ENC_ITEM_UNKNOWN && (zones & Z_HAND)) {
		/* An unseen card of the hand not chosen yet; with none, '?' says
		 * which only when the cards left are copies of one card. */
		int v[ENC_MAX_DECK], inst = -1, first = -1, same = 1;
		int n = enc_zone_list(s, seat, ENC_Z_HAND, v);
		for (int k = 0; k < n && inst < 0; k++) {
			if (chosen_already(u, i, seat, v[k]))
				continue;
			if (s->p[seat].inst[v[k]].card < 0)
				inst = v[k];
			else if (first < 0)
				first = v[k];
			else if (s->p[seat].inst[v[k]].card != s->p[seat].inst[first].card)
				same = 0;
		}
		if (inst < 0 && same)
			inst = first;
		if (inst < 0) {
			bind_error(s, u, st, it->where, d, "'?' names no card of %s's hand it may mean",
				   enc_seat_name(seat));
			return -1;
		}
		it->inst = (short)inst;
		it->owner = (signed char)seat;
		return 0;
	}
	if (it->kind != ENC_ITEM_CARD) {
		bind_error(s, u, st, it->where, d, "a card is wanted here");
		return -1;
	}
	/* The zone's copies of the card, in zone order (enc_zone_cards: the
	 * zone listed and sorted whole cost more than the rest). */
	int v[ENC_MAX_DECK], n = 0;
	int zone = zones & Z_TOWN ? ENC_Z_TOWN : zones & Z_HAND ? ENC_Z_HAND : -1;
	if (zone >= 0)
		n = enc_zone_cards(s, seat, (enc_zone)zone, it->card, v);
	/* Another copy first, the source itself last: the card used may pay
	 * for its own effect (ruling 10), but a name that fits another copy
	 * as well is read as that one, which leaves the effect its card. */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < n; k++) {
			int is_source = seat == u->seat && v[k] == u->inst;
			if (is_source != pass || chosen_already(u, i, seat, v[k]))
				continue;
			it->inst = (short)v[k];
			it->owner = (signed char)seat;
			return 0;
		}
	if ((zones & Z_HAND) && zone >= 0) {
		/* ... or an unseen card of that zone */
		n = enc_zone_cards(s, seat, (enc_zone)zone, -1, v);
		for (int k = 0; k < n; k++)
			if (!chosen_already(u, i, seat, v[k])) {
				it->inst = (short)v[k];
				it->owner = (signed char)seat;
				return 1;	/* to identify */
			}
	}
	bind_error(s, u, st, it->where, d,
		   zones & Z_HAND ? "'%s' is not in %s's hand" : N_("'%s' is not in %s's town"),
		   enc_card_id(s, it->card), enc_seat_name(seat));
	return -1;
}

/* How many cards a step could take from the zone: the card used among
 * them (ruling 10). */
static int zone_size(const hg_state *s, int seat, enc_zone_pick from)
{
	int n = 0;
	if (from == ENC_FROM_TABLE || from == ENC_FROM_TOWN)
		n += enc_zone_count(s, seat, ENC_Z_TOWN);
	if (from == ENC_FROM_TABLE || from == ENC_FROM_HIDDEN) {
		/* Every hidden card, the armies in a war included (ruling 6). */
		n += enc_zone_count(s, seat, ENC_Z_STACK);
	}
	if (from == ENC_FROM_HAND)
		n += enc_zone_count(s, seat, ENC_Z_HAND);
	return n;
}

static void impossible(const hg_state *s, const enc_use *u, const enc_step *st, hg_pos at,
		       hg_diags *d, const char *why, int why_has_rule)
{
	hg_buf stp;
	hg_buf_init(&stp);
	step_text(s, st, &stp);
	/* A reason that names its own rule keeps it. */
	hg_diag *dg = hg_diag_add(d, HG_ERROR, at, "enc.effect-impossible",
				  why_has_rule ? "the effect of '%s' cannot be done: '%s' fails, %s"
					       : N_("the effect of '%s' cannot be done: '%s' fails, %s (rule 2, Efectos)"),
				  use_card(s, u)->id, stp.data, why);
	hg_diag_note(dg, "\"si una de las partes del efecto no se puede realizar o falta algo, entonces nada del efecto se puede hacer\"");
	hg_buf_free(&stp);
	enc_rests_on(dg, s->data, u->card, "effect");
}

/* Binds a DISCARD or DESTROY step's chosen cards when the effect reaches
 * it, after the steps before it have run (ruling 16: "El que la
 * restricción esté al ultimo solo da lugar a que acomodes tus cartas para
 * que las escojas"). */
static int bind_step_cards(hg_state *s, enc_use *u, int group, const enc_step *st,
			   int step, run_ctx *rc)
{
	if (st->kind == ENC_STEP_DISCARD) {
		int have = zone_size(s, u->seat, st->from);
		if (have < st->count)
			return fail(rc, step, hg_ngettext("%s has %d card there", "%s has %d cards there",
							  (unsigned long)have),
				    enc_seat_name(u->seat), have);
	}
	int zones = st->kind == ENC_STEP_DESTROY ? Z_TOWN :
		    st->from == ENC_FROM_TABLE ? Z_TOWN | Z_HIDDEN :
		    st->from == ENC_FROM_TOWN ? Z_TOWN :
		    st->from == ENC_FROM_HIDDEN ? Z_HIDDEN : Z_HAND;
	int seat = st->kind == ENC_STEP_DESTROY ? u->target : u->seat;
	if (seat < 0)
		return fail(rc, step, "it names no player");
	for (int k = 0; k < u->nitems; k++) {
		enc_item *it = &u->items[k];
		if (it->group != group)
			continue;
		int bound = bind_card(s, u, k, seat, st, zones, rc->d);
		if (bound < 0 ||
		    (bound == 1 && enc_identify(s, seat, it->inst, it->card, it->where,
						rc->d ? rc->d : &rc->quiet) != 0)) {
			rc->choice_error = rc->d != NULL;
			return fail(rc, step, "a card it names is not there");
		}
		if (st->kind != ENC_STEP_DESTROY)
			continue;
		unsigned marks = enc_marks(s, seat, it->inst);
		const enc_card *c = enc_card_of(s, seat, it->inst);
		if ((marks & st->need_marks) != st->need_marks ||
		    (st->suit >= 0 && (int)c->suit != st->suit) ||
		    (st->max_value >= 0 && enc_value(s, seat, it->inst) > st->max_value)) {
			bind_error(s, u, st, it->where, rc->d, "'%s' is not a card this effect may destroy",
				   c->id);
			rc->choice_error = rc->d != NULL;
			return fail(rc, step, "'%s' is not a card it may destroy", c->id);
		}
	}
	return 0;
}

/* Checks the groups of chosen items against the steps that take them:
 * how many, and the piles and resources named.  The cards are bound when
 * the effect reaches their step (bind_step_cards, ruling 16). */
static int bind_choices(hg_state *s, enc_use *u, const hg_action *a, hg_diags *d)
{
	const enc_effect *e = use_card(s, u)->effect;
	int want = effect_groups(e);
	if (a->ngroups != want) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.effect-choice",
					  hg_ngettext("the effect of '%s' takes %d group of choices ('/ ...'); the record gives %d (rule 2, Efectos)",
						      "the effect of '%s' takes %d groups of choices ('/ ...'); the record gives %d (rule 2, Efectos)",
						      (unsigned long)want),
					  use_card(s, u)->id, want, a->ngroups);
		hg_buf b;
		hg_buf_init(&b);
		for (size_t i = 0; i < e->nsteps; i++)
			if (step_takes_choice(&e->steps[i])) {
				step_text(s, &e->steps[i], &b);
				hg_diag_note(dg, "a group for '%s'", b.data);
			}
		hg_buf_free(&b);
		enc_rests_on(dg, s->data, u->card, "effect");
		return -1;
	}
	int g = 0;
	for (size_t i = 0; i < e->nsteps; i++) {
		const enc_step *st = &e->steps[i];
		if (!step_takes_choice(st))
			continue;
		int group = g++;
		int n = group_size(u, group);
		int need = (st->kind == ENC_STEP_RESOURCE || st->kind == ENC_STEP_DRAIN) ? 1 : st->count;
		hg_pos at = a->pos;
		const enc_item *first = group_item(u, group, 0);
		if (first)
			at = first->where;
		if (n != need) {
			bind_error(s, u, st, at, d,
				   hg_ngettext("%d item given, %d wanted", "%d items given, %d wanted",
					       (unsigned long)n),
				   n, need);
			return -1;
		}
		for (int k = 0; k < u->nitems; k++) {
			enc_item *it = &u->items[k];
			if (it->group != group)
				continue;
			switch (st->kind) {
			/* The cards of DISCARD and DESTROY are bound when the
			 * effect reaches their step (bind_step_cards). */
			case ENC_STEP_DRAW:
				if (enc_item_drawn(u->items, k))
					break;	/* the card the pile before it gives */
				if (it->kind != ENC_ITEM_NUMBER || it->number < 1 || it->number > ENC_PILES) {
					bind_error(s, u, st, it->where, d, "a pile (1, 2 or 3) is wanted");
					return -1;
				}
				break;
			case ENC_STEP_RESOURCE:
			case ENC_STEP_DRAIN: {
				int res = it->kind == ENC_ITEM_RESOURCE ? it->number : -1;
				if (res < 0) {
					bind_error(s, u, st, it->where, d, "a resource is wanted");
					return -1;
				}
				/* rule 2: Sagrait and Ídolo Maldito are no effect's choice. */
				if (s->data->pool.res[res].special) {
					bind_error(s, u, st, it->where, d,
						   "'%s' is a special resource no effect may choose",
						   s->data->pool.res[res].id);
					return -1;
				}
				it->number = (short)res;
				break;
			}
			default:
				break;
			}
		}
	}
	return 0;
}

static int bind_outcome(hg_state *s, enc_use *u, const hg_action *a, hg_diags *d)
{
	const enc_card *c = use_card(s, u);
	if (c->effect->unexpressed && !a->has_outcome) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.outcome-missing",
					  "the effect of '%s' is not expressed in the card data: the record states its outcome after '=' (ruling 11)",
					  c->id);
		hg_diag_note(dg, "e.g. '= discard P2 golem', '= tower P2 -3', '= wear P2 1' or '= nothing'");
		return -1;
	}
	if (!c->effect->unexpressed && a->has_outcome) {
		hg_diag_add(d, HG_ERROR, a->out[0].where, "enc.outcome-unexpected",
			    "the effect of '%s' is in the card data: its outcome follows from it, not from '=' (ruling 11)",
			    c->id);
		return -1;
	}
	for (int i = 0; i < u->nout; i++) {
		enc_outcome *o = &u->out[i];
		if (o->kind != ENC_OUT_DISCARD)
			continue;
		int inst = -1;
		if (o->item.kind == ENC_ITEM_REF)
			inst = enc_ref_inst(s, o->seat, &o->item);
		else if (o->item.kind == ENC_ITEM_CARD)
			inst = enc_town_find(s, o->seat, o->item.card, 0);
		if (inst < 0) {
			hg_diag_add(d, HG_ERROR, o->where, "enc.outcome-impossible",
				    "the stated outcome discards a card %s does not have on the table (rule 2, Efectos)",
				    enc_seat_name(o->seat));
			return -1;
		}
		o->item.inst = (short)inst;
	}
	return 0;
}

/* ------------------------------------------------------ who may use */
enum { CTX_TURN, CTX_WAR, CTX_RESPONSE };

static int use_context(const hg_state *s)
{
	if (s->ex.active)
		return CTX_RESPONSE;
	if (s->war.stage != ENC_WAR_NONE)
		return CTX_WAR;
	return CTX_TURN;
}

int enc_use_allowed(const hg_state *s, int seat)
{
	if (!enc_may_act(s, seat) || s->phase == ENC_PH_SETUP || s->phase == ENC_PH_A)
		return 0;
	if (enc_banned(s, seat, ENC_FORBID_EFFECTS))
		return 0;
	if (s->ex.active && s->ex.n >= ENC_MAX_PENDING)
		return 0;
	return 1;
}

/* Finds the source a use names: a town card of the player, its tower, or
 * the card it attacks with now (rule 2, Efectos: "Para usar el efecto de una
 * carta Oculta, debes hacerla Visible en tu mesa primero o debe ser la carta
 * que está atacando actualmente"). */
static int find_source(const hg_state *s, const hg_action *a, enc_use *u, hg_diags *d)
{
	const enc_player *p = &s->p[a->seat];
	if (a->src == ENC_SRC_TOWER) {
		u->src = ENC_SRC_TOWER;
		u->inst = -1;
		u->card = (short)p->tower;
		/* A shared tower is one card: once a round for the team. */
		const enc_player *t = enc_tower_of_c(s, a->seat);
		if (t->tower_used_seat >= 0 && !enc_round_over(s, t->tower_used_seat, t->tower_used_turn)) {
			hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-used",
				    "%s used its tower's effect less than a round ago (rule 2, Efectos)",
				    enc_seat_name(a->seat));
			return -1;
		}
		return 0;
	}
	int inst = enc_town_find(s, a->seat, a->src_card, 1);
	if (inst >= 0) {
		if (!enc_is_active(s, a->seat, inst)) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->src_pos, "enc.inactive",
						  "'%s' is not active: %s's town and tower do not cover its cost (rule 2, Costo)",
						  enc_card_id(s, a->src_card), enc_seat_name(a->seat));
			int res[ENC_MAX_RES];
			enc_resources(s, a->seat, res);
			const enc_card *c = &s->data->pool.cards[a->src_card];
			for (int r = 0; r < s->data->pool.nres; r++)
				if (c->cost[r])
					hg_diag_note(dg, "it costs %d %s; %s has %d", c->cost[r],
						     s->data->pool.res[r].id, enc_seat_name(a->seat), res[r]);
			enc_rests_on(dg, s->data, a->src_card, "cost");
			enc_rests_on_town(dg, s, a->seat);
			return -1;
		}
		if (enc_effect_used(s, a->seat, inst)) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-used",
						  "the effect of this '%s' was used less than a round ago (rule 2, Efectos)",
						  enc_card_id(s, a->src_card));
			hg_diag_note(dg, "\"por 1 vuelta no puedes volver a usarlo de la misma carta (pero sí de otra copia)\"");
			return -1;
		}
		u->src = ENC_SRC_TOWN;
		u->inst = (short)inst;
		u->card = (short)a->src_card;
		return 0;
	}
	/* The revealed cards of both sides "se Atacan" (rule 6.D2): each is
	 * "la carta que está atacando actualmente". */
	int fighting = enc_duel_card(s, a->seat);
	if (fighting >= 0 && p->inst[fighting].card == a->src_card) {
		if (enc_effect_used(s, a->seat, fighting)) {
			hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-used",
				    "the effect of this '%s' was used less than a round ago (rule 2, Efectos)",
				    enc_card_id(s, a->src_card));
			return -1;
		}
		u->src = ENC_SRC_ATTACKER;
		u->inst = (short)fighting;
		u->card = (short)a->src_card;
		return 0;
	}
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].card == a->src_card &&
		    (p->inst[i].zone == ENC_Z_STACK || p->inst[i].zone == ENC_Z_DUEL)) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-hidden",
						  "'%s' is hidden: a hidden card's effect is used once it is made visible, or while it is revealed in a war (rule 2, Efectos)",
						  enc_card_id(s, a->src_card));
			hg_diag_note(dg, "'show STACK' turns it up into the town");
			return -1;
		}
	hg_diag_add(d, HG_ERROR, a->src_pos, "enc.not-in-town",
		    "'%s' is not in %s's town (rule 2, Efectos)", enc_card_id(s, a->src_card),
		    enc_seat_name(a->seat));
	return -1;
}

static int check_timing(const hg_state *s, const hg_action *a, const enc_use *u, hg_diags *d)
{
	const enc_card *c = use_card(s, u);
	const enc_effect *e = c->effect;
	int ctx = use_context(s);
	static const unsigned bits[] = { ENC_WHEN_TURN, ENC_WHEN_WAR, ENC_WHEN_RESPONSE };
	static const char *const words[] = { N_("in its owner's phases C and E"),
					     N_("during a war"), N_("in answer to another effect") };
	if (!(e->when & bits[ctx])) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-timing",
					  "the effect of '%s' is not used %s (its card says when)",
					  c->id, _(words[ctx]));
		for (int k = 0; k < 3; k++)
			if (e->when & bits[k])
				hg_diag_note(dg, "it is used %s", _(words[k]));
		return -1;
	}
	if ((e->when & ENC_WHEN_ATTACKING) && u->src != ENC_SRC_ATTACKER) {
		hg_diag_add(d, HG_ERROR, a->src_pos, "enc.effect-timing",
			    "the effect of '%s' is used only by the card while it attacks", c->id);
		return -1;
	}
	/* rule 6.D2: "Las cartas del Pueblo de Oro, Basto y Espada pueden usar
	 * sus efectos durante una batalla, las de Copa no a menos que esta ataque
	 * o el efecto de su carta lo permita": said of the battle, not of the
	 * declaration or the invasion (ruling 20). */
	if (s->war.stage == ENC_WAR_BATTLE &&
	    c->suit == ENC_COPA && u->src == ENC_SRC_TOWN && !e->battle) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->src_pos, "enc.copa-in-battle",
					  "'%s' is copa: its effect is not used during a battle (rule 6.D2)",
					  c->id);
		hg_diag_note(dg, "a copa card uses its effect in battle only while it attacks, or when its card says so");
		return -1;
	}
	return 0;
}

static int check_target(const hg_state *s, const hg_action *a, enc_use *u, hg_diags *d)
{
	const enc_effect *e = use_card(s, u)->effect;
	if (e->target == ENC_TARGET_NONE) {
		if (a->other >= 0) {
			hg_diag_add(d, HG_ERROR, a->other_pos, "enc.effect-target",
				    "the effect of '%s' names no player (rule 2, Efectos)",
				    use_card(s, u)->id);
			return -1;
		}
		u->target = -1;
		return 0;
	}
	if (a->other < 0) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.effect-target",
			    "the effect of '%s' names a player: write '> P2' after the card (rule 2, Efectos)",
			    use_card(s, u)->id);
		return -1;
	}
	int t = a->other;
	const char *bad = NULL;
	if (t == a->seat)
		bad = _("the player using it");
	else if (!enc_alive(s, t))
		bad = _("out of the game");
	else if (e->target == ENC_TARGET_OPPONENT && enc_teammates(s, a->seat, t))
		bad = _("an ally");
	if (bad) {
		hg_diag_add(d, HG_ERROR, a->other_pos, "enc.effect-target",
			    "the effect of '%s' cannot name %s: %s (rule 2, Efectos)",
			    use_card(s, u)->id, enc_seat_name(t), bad);
		return -1;
	}
	u->target = (signed char)t;
	return 0;
}

/* Copies a use's live part: what comes before its items, and the items
 * and outcome parts it counts (nothing reads the room after them; copied
 * whole, a use is a kilobyte). */
static void use_copy(enc_use *dst, const enc_use *src)
{
	memcpy(dst, src, offsetof(enc_use, items));
	memcpy(dst->items, src->items, sizeof src->items[0] * (size_t)src->nitems);
	dst->nitems = src->nitems;
	memcpy(dst->out, src->out, sizeof src->out[0] * (size_t)src->nout);
	dst->nout = src->nout;
}

static void mark_used(hg_state *s, const enc_use *u)
{
	if (u->src == ENC_SRC_TOWER) {
		enc_tower_of(s, u->seat)->tower_used_seat = (signed char)s->current;
		enc_tower_of(s, u->seat)->tower_used_turn = s->turn;
	} else {
		s->p[u->seat].inst[u->inst].used_seat = (signed char)s->current;
		s->p[u->seat].inst[u->inst].used_turn = s->turn;
	}
}

/* may_skip 0: every trial on a copy of the state (hg_enc_apply_use_with). */
static int apply_use(hg_state *s, const hg_action *a, hg_diags *d, int may_skip)
{
	if (!enc_may_act(s, a->seat)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
					  "%s cannot use an effect now (rule 2, Efectos)",
					  enc_seat_name(a->seat));
		if (s->ex.active)
			hg_diag_note(dg, "%s is answering an effect", enc_seat_name(s->ex.target));
		else if (s->war.stage != ENC_WAR_NONE)
			hg_diag_note(dg, "during a war only %s and %s use effects",
				     enc_seat_name(s->war.att), enc_seat_name(s->war.def));
		else
			hg_diag_note(dg, "it is %s's turn", enc_seat_name(s->current));
		return -1;
	}
	if (s->phase == ENC_PH_SETUP) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.setup",
			    "no effect is used during the set-up (rule 5)");
		return -1;
	}
	if (s->phase == ENC_PH_A) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "enc.draw-short",
					  "%s has drawn %d of the %d cards of phase A (rule 6.A)",
					  enc_seat_name(s->current), s->draws_done, s->draws_needed);
		hg_diag_note(dg, "effects come in phase C, after the draw and the cards put down");
		return -1;
	}
	if (enc_banned(s, a->seat, ENC_FORBID_EFFECTS)) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.forbidden",
			    "an effect forbids %s to use effects this turn (rule 2, Efectos)",
			    enc_seat_name(a->seat));
		return -1;
	}
	enc_use u;	/* cleared up to its items, which are counted (use_copy) */
	memset(&u, 0, offsetof(enc_use, items));
	u.nitems = u.nout = 0;
	u.seat = (signed char)a->seat;
	if (find_source(s, a, &u, d) != 0)
		return -1;
	const enc_card *c = use_card(s, &u);
	if (!c->effect) {
		hg_diag_add(d, HG_ERROR, a->src_pos, "enc.no-effect",
			    "'%s' has no effect to use (rule 2, Efectos)", c->id);
		return -1;
	}
	if (check_timing(s, a, &u, d) != 0 || check_target(s, a, &u, d) != 0)
		return -1;
	if (s->ex.active && s->ex.n >= ENC_MAX_PENDING) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.not-now",
			    "%d effects wait already; 'pass' resolves them", ENC_MAX_PENDING);
		return -1;
	}
	u.level = (signed char)enc_priority(c);
	u.evento = (signed char)c->evento;
	memcpy(u.items, a->items, sizeof a->items[0] * (size_t)a->nitems);
	u.nitems = a->nitems;
	for (int i = 0; i < u.nitems; i++)
		u.items[i].inst = -1;
	memcpy(u.out, a->out, sizeof a->out[0] * (size_t)a->nout);
	u.nout = a->nout;
	if (bind_choices(s, &u, a, d) != 0 || bind_outcome(s, &u, a, d) != 0)
		return -1;

	/* Every step must be possible now.  An effect that nobody answers
	 * happens now: its steps run on the position itself (an impossible one
	 * makes the action illegal, and the position is then spoiled anyway,
	 * as hg_game_class.apply allows).  One that waits in an exchange is
	 * tried on a copy, or, when it cannot fail after a change, checked
	 * without one. */
	int now = u.target < 0 && !s->ex.active;
	hg_state trial, *on = s;
	run_ctx rc;
	hg_buf_init(&rc.why);
	rc.why_has_rule = 0;
	rc.step = 0;
	rc.check_only = 0;
	rc.d = d;
	memset(&rc.quiet, 0, sizeof rc.quiet);	/* hg_diags_init */
	if (!now && may_skip && !fails_after_change(c->effect, &u)) {
		rc.check_only = 1;
	} else if (!now) {
		enc_state_scratch(&trial, s);
		on = &trial;
	}
	int ok = run_steps(on, &u, &rc);
	if (ok != 0) {
		if (!rc.choice_error)
			impossible(s, &u, &c->effect->steps[rc.step], a->src_pos, d, rc.why.data,
				   rc.why_has_rule);
		hg_buf_free(&rc.why);
		return -1;
	}
	if (c->effect->unexpressed) {
		hg_diag *dg = hg_diag_add(d, HG_UNVERIFIED, a->src_pos, "enc.effect-unexpressed",
					  "the effect of '%s' is not expressed in the card data: the outcome the record states is applied but not verified",
					  c->id);
		for (size_t i = 0; i < c->effect->nsteps; i++)
			if (c->effect->steps[i].kind == ENC_STEP_UNEXPRESSED)
				hg_diag_note(dg, "the card says: \"%s\"", c->effect->steps[i].text);
	}
	mark_used(s, &u);
	if (now) {
		/* Nobody to answer: the steps have run. */
	} else if (u.target >= 0 && !s->ex.active) {
		/* The target may answer first (rule 2, Efectos: "Él podrá activar
		 * todas las cartas que quiera y usar sus efectos"). */
		s->ex.active = 1;
		s->ex.target = u.target;
		s->ex.nwaiting = 0;
		s->ex.n = 0;
		u.order = 0;
		use_copy(&s->ex.uses[s->ex.n++], &u);
	} else {
		u.order = (signed char)s->ex.n;
		use_copy(&s->ex.uses[s->ex.n++], &u);
		/* An answer aimed at a player makes it an "Objetivo" too: it
		 * answers in turn, and its pass hands the answer back (ruling
		 * 14).  Each use adds at most one, so the stack never fills. */
		if (u.target >= 0 && u.target != s->ex.target) {
			s->ex.waiting[s->ex.nwaiting++] = (signed char)s->ex.target;
			s->ex.target = u.target;
		}
	}
	if (s->phase == ENC_PH_B && s->current == a->seat && s->war.stage == ENC_WAR_NONE)
		s->phase = ENC_PH_C;
	hg_buf_free(&rc.why);
	return 0;
}

int enc_apply_use(hg_state *s, const hg_action *a, hg_diags *d)
{
	return apply_use(s, a, d, 1);
}

/* The order an exchange resolves in (rule 2, El Palo and Clase): higher
 * level first; between equal levels an EVENTO goes before a card that is
 * not; otherwise the earlier use first. */
static int before(const enc_use *x, const enc_use *y)
{
	if (x->level != y->level)
		return x->level > y->level;
	if (x->evento != y->evento)
		return x->evento > y->evento;
	return x->order < y->order;
}

/* Is the source still there to act?  Oro's "activación es inevitable". */
static int source_holds(const hg_state *s, const enc_use *u)
{
	if (u->src == ENC_SRC_TOWER || use_card(s, u)->suit == ENC_ORO)
		return 1;
	const enc_inst *c = &s->p[u->seat].inst[u->inst];
	if (u->src == ENC_SRC_TOWN)
		return c->zone == ENC_Z_TOWN && enc_is_active(s, u->seat, u->inst);
	return c->zone == ENC_Z_DUEL && enc_duel_card(s, u->seat) == u->inst;
}

/* `pass`: the target has answered; everything waiting resolves by priority.
 * An effect whose source has gone, or one of whose steps can no longer be
 * done, is void. */
/* may_skip 0: an undo copy before every effect (hg_enc_apply_pass_with). */
static int apply_pass(hg_state *s, const hg_action *a, hg_diags *d, int may_skip)
{
	if (!s->ex.active) {
		hg_diag_add(d, HG_ERROR, a->pos, "enc.not-now",
			    "no effect waits for an answer: 'pass' closes an exchange (rule 2, Efectos)");
		return -1;
	}
	if (a->seat != s->ex.target) {
		hg_diag_add(d, HG_ERROR, a->seat_pos, "enc.not-your-turn",
			    "%s, the target, answers and passes, not %s (rule 2, Efectos)",
			    enc_seat_name(s->ex.target), enc_seat_name(a->seat));
		return -1;
	}
	/* The last to be aimed at has answered: back to the one before (one
	 * still in the game); when none waits, everything resolves. */
	while (s->ex.nwaiting > 0) {
		s->ex.target = s->ex.waiting[--s->ex.nwaiting];
		if (enc_alive(s, s->ex.target))
			return 0;
	}
	/* Sorted by index (a use is a kilobyte), then copied in that order. */
	const enc_use *uses = s->ex.uses;
	int n = s->ex.n, by[ENC_MAX_PENDING];
	for (int i = 0; i < n; i++) {
		int k = i;
		while (k > 0 && before(&uses[i], &uses[by[k - 1]])) {
			by[k] = by[k - 1];
			k--;
		}
		by[k] = i;
	}
	enc_use order[ENC_MAX_PENDING];
	for (int i = 0; i < n; i++)
		use_copy(&order[i], &uses[by[i]]);
	s->ex.active = 0;
	s->ex.n = 0;
	/* Each effect runs on the position itself; one that fails part-way
	 * is undone from the copy taken before it.  One that cannot fail
	 * after a change needs no copy: failing, it has changed nothing. */
	run_ctx rc;
	hg_buf_init(&rc.why);
	rc.check_only = 0;
	rc.d = NULL;	/* a step whose choices no longer fit voids the effect */
	memset(&rc.quiet, 0, sizeof rc.quiet);	/* hg_diags_init */
	hg_state before;
	for (int i = 0; i < n; i++) {
		enc_use *u = &order[i];
		if (!enc_alive(s, u->seat) || (u->target >= 0 && !enc_alive(s, u->target)) ||
		    !source_holds(s, u))
			continue;	/* void */
		int undo = !may_skip || fails_after_change(use_card(s, u)->effect, u);
		if (undo)
			enc_state_scratch(&before, s);
		if (run_steps(s, u, &rc) == 0)
			enc_settle(s);
		else if (undo)
			enc_state_scratch(s, &before);
	}
	/* What naming the unseen cards reported was reported at their use. */
	hg_diags_free(&rc.quiet);
	hg_buf_free(&rc.why);
	return 0;
}

int enc_apply_pass(hg_state *s, const hg_action *a, hg_diags *d)
{
	return apply_pass(s, a, d, 1);
}

int hg_enc_apply_use_with(hg_state *s, const hg_action *a, hg_diags *d, int may_skip)
{
	return apply_use(s, a, d, may_skip);
}

int hg_enc_apply_pass_with(hg_state *s, const hg_action *a, hg_diags *d, int may_skip)
{
	return apply_pass(s, a, d, may_skip);
}

/* A representative use of a source for legal(): the first cards, piles and
 * resources that fit, in the order the zones list them (herald-
 * encrucijada(7), LEGAL ACTIONS). */
int enc_sample_use(const hg_state *s, int seat, int src, int inst, int target,
		   hg_action *a)
{
	const enc_player *p = &s->p[seat];
	int card = src == ENC_SRC_TOWER ? p->tower : p->inst[inst].card;
	const enc_effect *e = card >= 0 ? s->data->pool.cards[card].effect : NULL;
	if (!e)
		return 0;
	a->kind = ENC_A_USE;
	a->seat = seat;
	a->src = src == ENC_SRC_TOWER ? ENC_SRC_TOWER : ENC_SRC_TOWN;
	a->src_card = card;
	a->other = e->target == ENC_TARGET_NONE ? -1 : target;
	if (e->target != ENC_TARGET_NONE && target < 0)
		return 0;
	a->nitems = 0;
	a->ngroups = 0;
	int used[ENC_MAX_SEATS][ENC_MAX_DECK];
	memset(used, 0, sizeof used);
	if (inst >= 0)
		used[seat][inst] = 1;	/* keep the source: discarding it voids little */
	for (size_t i = 0; i < e->nsteps; i++) {
		const enc_step *st = &e->steps[i];
		if (!step_takes_choice(st))
			continue;
		int g = a->ngroups++;
		int need = (st->kind == ENC_STEP_RESOURCE || st->kind == ENC_STEP_DRAIN) ? 1 : st->count;
		int got = 0;
		int v[ENC_MAX_DECK], n;
		switch (st->kind) {
		case ENC_STEP_DISCARD:
			if (st->from == ENC_FROM_HAND) {
				n = enc_zone_list(s, seat, ENC_Z_HAND, v);
				for (int k = 0; k < n && got < need; k++) {
					if (p->inst[v[k]].card < 0 || used[seat][v[k]])
						continue;
					/* The same card name twice must be two copies. */
					used[seat][v[k]] = 1;
					enc_item *it = &a->items[a->nitems++];
					memset(it, 0, sizeof *it);
					it->kind = ENC_ITEM_CARD;
					it->group = (signed char)g;
					it->card = p->inst[v[k]].card;
					got++;
				}
				break;
			}
			for (int st2 = 0; st2 < ENC_MAX_STACKS && got < need &&
			     st->from != ENC_FROM_TOWN; st2++) {
				if (enc_stack_in_battle(s, seat, st2))
					continue;
				n = enc_stack_list(s, seat, st2, v);
				for (int k = 0; k < n && got < need; k++) {
					enc_item *it = &a->items[a->nitems++];
					memset(it, 0, sizeof *it);
					it->kind = ENC_ITEM_REF;
					it->group = (signed char)g;
					it->stack = (signed char)st2;
					it->pos = (signed char)(k + 1);
					used[seat][v[k]] = 1;
					got++;
				}
			}
			if (st->from == ENC_FROM_TOWN || st->from == ENC_FROM_TABLE) {
				n = enc_zone_list(s, seat, ENC_Z_TOWN, v);
				for (int k = 0; k < n && got < need; k++) {
					if (used[seat][v[k]])
						continue;
					used[seat][v[k]] = 1;
					enc_item *it = &a->items[a->nitems++];
					memset(it, 0, sizeof *it);
					it->kind = ENC_ITEM_CARD;
					it->group = (signed char)g;
					it->card = p->inst[v[k]].card;
					got++;
				}
			}
			break;
		case ENC_STEP_DESTROY:
			if (target < 0)
				return 0;
			n = enc_zone_list(s, target, ENC_Z_TOWN, v);
			for (int k = 0; k < n && got < need; k++) {
				const enc_card *c = enc_card_of(s, target, v[k]);
				if ((enc_marks(s, target, v[k]) & st->need_marks) != st->need_marks ||
				    (st->suit >= 0 && (int)c->suit != st->suit) ||
				    (st->max_value >= 0 && enc_value(s, target, v[k]) > st->max_value))
					continue;
				enc_item *it = &a->items[a->nitems++];
				memset(it, 0, sizeof *it);
				it->kind = ENC_ITEM_CARD;
				it->group = (signed char)g;
				it->card = s->p[target].inst[v[k]].card;
				got++;
			}
			break;
		case ENC_STEP_DRAW:
			for (int k = 0; k < need; k++) {
				int best = 0, most = -1;
				for (int pile = 0; pile < ENC_PILES; pile++) {
					int m = enc_pile_list(s, seat, pile, v);
					if (m > most) {
						most = m;
						best = pile;
					}
				}
				enc_item *it = &a->items[a->nitems++];
				memset(it, 0, sizeof *it);
				it->kind = ENC_ITEM_NUMBER;
				it->group = (signed char)g;
				it->number = (short)(best + 1);
				got++;
			}
			break;
		default:
			for (int r = 0; r < s->data->pool.nres && got < need; r++) {
				if (s->data->pool.res[r].special)
					continue;
				enc_item *it = &a->items[a->nitems++];
				memset(it, 0, sizeof *it);
				it->kind = ENC_ITEM_RESOURCE;
				it->group = (signed char)g;
				it->number = (short)r;
				got++;
			}
			break;
		}
		if (got < need)
			return 0;
	}
	if (e->unexpressed) {
		a->has_outcome = 1;
		a->nout = 1;
		memset(&a->out[0], 0, sizeof a->out[0]);
		a->out[0].kind = ENC_OUT_NOTHING;
	}
	return 1;
}

unsigned enc_use_draw_groups(const hg_state *s, const hg_action *a)
{
	if (a->kind != ENC_A_USE || a->seat < 0 || a->seat >= s->nseats)
		return 0;
	int card = a->src == ENC_SRC_TOWER ? s->p[a->seat].tower : a->src_card;
	const enc_effect *e = card >= 0 ? s->data->pool.cards[card].effect : NULL;
	unsigned mask = 0;
	int g = 0;
	for (size_t i = 0; e && i < e->nsteps && g < 32; i++) {
		if (!step_takes_choice(&e->steps[i]))
			continue;
		if (e->steps[i].kind == ENC_STEP_DRAW)
			mask |= 1u << g;
		g++;
	}
	return mask;
}
