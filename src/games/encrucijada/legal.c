/* legal.c - the legal actions of a position, and the tags of a random game.
 *
 * Candidates are generated for whoever may act, then each is tried on a
 * copy with enc_apply: only what the referee accepts is listed, so legal()
 * can never disagree with apply().  Where the choices are combinatorial the
 * list is a bounded, documented sample (herald-encrucijada(7), LEGAL
 * ACTIONS): hidden cards are put on a new stack or on top of a stack; one
 * representative choice per effect and target; at most one card taken back
 * and two stack moves per turn; no rearranging during the set-up; no
 * effect the card data cannot express (its outcome is the record's word).  Every
 * turn draws a card and no card returns to a pile, so random play ends. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

#define LEGAL_TAKES 1
#define LEGAL_MOVES 2

/* Each candidate is written into one block (`cand`) and tried; only one
 * the referee accepts is copied into an action of its own.  Short of
 * memory inside a unit of work (util.c) nothing more is offered: the unit
 * drops the list. */
typedef struct gen {
	const hg_state *s;
	hg_action_list *out;
	hg_state *trial;
	hg_diags scratch;
	hg_action *cand;
} gen;

/* Keeps a copy of the candidate when the referee accepts it. */
static void offer(gen *g, const hg_action *a)
{
	if (hg_alloc_lost())
		return;
	enc_state_copy(g->trial, g->s);
	hg_diags_clear(&g->scratch);
	if (enc_apply(g->trial, a, &g->scratch) != 0)
		return;
	hg_action *kept = enc_action_try_copy(a);
	if (kept && hg_action_list_push(g->out, kept) != 0)
		enc_free_action(kept);
}

/* The candidate, set afresh. */
static hg_action *act(gen *g, enc_act_kind kind, int seat)
{
	enc_action_reset(g->cand, kind, seat);
	return g->cand;
}

static void ref_item(enc_item *it, int stack, int pos)
{
	memset(it, 0, sizeof *it);
	it->kind = ENC_ITEM_REF;
	it->stack = (signed char)stack;
	it->pos = (signed char)pos;
	it->inst = -1;
}

static void offer_puts(gen *g, int seat)
{
	const hg_state *s = g->s;
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_HAND, v);
	int seen[ENC_MAX_DECK];
	int nseen = 0;
	for (int i = 0; i < n; i++) {
		int card = s->p[seat].inst[v[i]].card;
		int dup = 0;
		for (int k = 0; k < nseen; k++)
			dup |= seen[k] == card;
		if (dup)
			continue;
		seen[nseen++] = card;
		hg_action *a = act(g, ENC_A_PUT, seat);
		a->card = card >= 0 ? card : -2;
		a->visible = 1;
		if (card >= 0)
			offer(g, a);
		a = act(g, ENC_A_PUT, seat);
		a->card = card >= 0 ? card : -2;
		offer(g, a);	/* hidden, on a new stack */
		for (int st = 0; st < ENC_MAX_STACKS; st++) {
			if (enc_stack_count(s, seat, st) == 0)
				continue;
			a = act(g, ENC_A_PUT, seat);
			a->card = card >= 0 ? card : -2;
			a->has_ref = 1;
			ref_item(&a->ref2, st, 0);
			offer(g, a);
		}
	}
}

static void offer_hidden_handling(gen *g, int seat)
{
	const hg_state *s = g->s;
	for (int st = 0; st < ENC_MAX_STACKS; st++) {
		int n = enc_stack_count(s, seat, st);
		if (n == 0)
			continue;
		hg_action *a = act(g, ENC_A_SHOW, seat);
		a->has_ref = 1;
		ref_item(&a->ref, st, 0);
		offer(g, a);
		if (s->takes < LEGAL_TAKES && seat == s->current && s->war.stage == ENC_WAR_NONE) {
			a = act(g, ENC_A_TAKE, seat);
			a->has_ref = 1;
			ref_item(&a->ref, st, 0);
			offer(g, a);
		}
		if (s->moves < LEGAL_MOVES && n >= 2 && s->phase != ENC_PH_SETUP) {
			int to = enc_free_stack(s, seat);
			if (to >= 0) {
				a = act(g, ENC_A_MOVE, seat);
				a->has_ref = 1;
				ref_item(&a->ref, st, 0);
				ref_item(&a->ref2, to, 0);
				offer(g, a);
			}
		}
	}
}

static void offer_uses(gen *g, int seat)
{
	const hg_state *s = g->s;
	if (!enc_use_allowed(s, seat))
		return;
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_TOWN, v);
	int srcs[ENC_MAX_DECK + 2], kinds[ENC_MAX_DECK + 2], ns = 0;
	for (int i = 0; i < n; i++) {
		const enc_card *c = enc_card_of(s, seat, v[i]);
		/* An effect the data cannot express has no outcome to choose:
		 * random play leaves it alone (its record would be unverified). */
		if (!c->effect || c->effect->unexpressed || enc_effect_used(s, seat, v[i]))
			continue;
		/* One copy of a card is enough to offer. */
		int dup = 0;
		for (int k = 0; k < ns; k++)
			dup |= kinds[k] == ENC_SRC_TOWN && s->p[seat].inst[srcs[k]].card == c - s->data->pool.cards;
		if (dup)
			continue;
		srcs[ns] = v[i];
		kinds[ns++] = ENC_SRC_TOWN;
	}
	const enc_effect *te = s->data->pool.cards[s->p[seat].tower].effect;
	if (te && !te->unexpressed) {
		srcs[ns] = -1;
		kinds[ns++] = ENC_SRC_TOWER;
	}
	int fighting = enc_duel_card(s, seat);
	if (fighting >= 0 && enc_card_of(s, seat, fighting)->effect &&
	    !enc_card_of(s, seat, fighting)->effect->unexpressed) {
		srcs[ns] = fighting;
		kinds[ns++] = ENC_SRC_ATTACKER;
	}
	for (int k = 0; k < ns; k++) {
		for (int t = -1; t < s->nseats; t++) {
			hg_action *a = act(g, ENC_A_USE, seat);
			if (!enc_sample_use(s, seat, kinds[k], srcs[k], t, a) || (t >= 0 && a->other < 0))
				continue;
			offer(g, a);
		}
	}
}

/* Without a Seed the top card of an army may be unseen: a reveal must name
 * it, so each card the deck could put there is a candidate. */
static void offer_named_reveals(gen *g, int seat)
{
	const hg_state *s = g->s;
	int army = seat == s->war.att ? s->war.att_army : s->war.def_army;
	int top = army >= 0 ? enc_stack_at(s, seat, army, 1) : -1;
	if (top < 0 || s->p[seat].inst[top].card >= 0)
		return;
	const enc_deck *deck = s->data->decks[s->p[seat].deck];
	for (size_t i = 0; i < deck->nentries; i++) {
		int dup = 0;
		for (size_t k = 0; k < i; k++)
			dup |= deck->entries[k].card == deck->entries[i].card;
		if (dup)
			continue;
		hg_action *a = act(g, ENC_A_REVEAL, seat);
		a->card = deck->entries[i].card;
		offer(g, a);
	}
}

static void offer_war(gen *g, int seat)
{
	const hg_state *s = g->s;
	const enc_war *w = &s->war;
	int stacks[ENC_MAX_STACKS], n;
	hg_action *a;
	if (seat == w->att)
		offer(g, act(g, ENC_A_REGROUP, seat));
	if (enc_war_waiting(s) != seat)
		return;
	switch (w->stage) {
	case ENC_WAR_DECLARED:
		offer(g, act(g, ENC_A_DEFEND, seat));
		offer(g, act(g, ENC_A_YIELD, seat));
		return;
	case ENC_WAR_BATTLE:
	case ENC_WAR_INVASION:
		break;
	default:
		return;
	}
	offer(g, act(g, ENC_A_REVEAL, seat));
	offer_named_reveals(g, seat);
	offer(g, act(g, ENC_A_FIGHT, seat));
	if (seat == w->def && w->stage == ENC_WAR_BATTLE)
		offer(g, act(g, ENC_A_YIELD, seat));
	enc_army_available(s, seat, stacks, &n);
	for (int i = 0; i < n; i++) {
		a = act(g, ENC_A_ARMY, seat);
		a->army = stacks[i];
		ref_item(&a->ref, stacks[i], 0);
		offer(g, a);
	}
	if (w->stage != ENC_WAR_INVASION)
		return;
	if (seat == w->def) {
		a = act(g, ENC_A_TARGET, seat);
		a->tgt = ENC_TGT_TOWER;
		offer(g, a);
		for (int i = 0; i < n; i++) {
			a = act(g, ENC_A_TARGET, seat);
			a->tgt = ENC_TGT_ARMY;
			a->army = stacks[i];
			ref_item(&a->ref, stacks[i], 0);
			offer(g, a);
		}
	}
	int v[ENC_MAX_DECK];
	int nt = enc_zone_list(s, w->def, ENC_Z_TOWN, v);
	for (int i = 0; i < nt; i++) {
		int card = s->p[w->def].inst[v[i]].card;
		int dup = 0;
		for (int k = 0; k < i; k++)
			dup |= s->p[w->def].inst[v[k]].card == card;
		if (dup)
			continue;
		a = act(g, seat == w->def ? ENC_A_TARGET : ENC_A_RETARGET, seat);
		a->tgt = ENC_TGT_TOWN;
		a->card = card;
		offer(g, a);
		if (seat == w->def) {
			a = act(g, ENC_A_FORCE, seat);
			a->card = card;
			offer(g, a);
		}
	}
}

void enc_legal(const hg_state *s, hg_action_list *out)
{
	if (s->over)
		return;
	gen g = { s, out, enc_clone(s), { 0 }, hg_try_malloc(enc_action_size()) };
	hg_diags_init(&g.scratch);
	if (!g.trial || !g.cand) {	/* (the unit of work reports it) */
		enc_free_state(g.trial);
		free(g.cand);
		return;
	}
	hg_action *a;
	if (s->phase == ENC_PH_SETUP) {
		for (int p = 0; p < ENC_PILES; p++) {
			a = act(&g, ENC_A_SETUP, s->current);
			a->pile = p;
			offer(&g, a);
		}
	} else if (s->ex.active) {
		int t = s->ex.target;
		offer(&g, act(&g, ENC_A_PASS, t));
		offer_uses(&g, t);
	} else if (s->war.stage != ENC_WAR_NONE) {
		for (int side = 0; side < 2; side++) {
			int seat = side ? s->war.def : s->war.att;
			offer_war(&g, seat);
			offer_uses(&g, seat);
		}
	} else if (s->phase == ENC_PH_A) {
		for (int p = 0; p < ENC_PILES; p++) {
			a = act(&g, ENC_A_DRAW, s->current);
			a->pile = p;
			offer(&g, a);
		}
	} else {
		int seat = s->current;
		offer(&g, act(&g, ENC_A_END, seat));
		offer_puts(&g, seat);
		offer_hidden_handling(&g, seat);
		offer_uses(&g, seat);
		for (int t = 0; t < s->nseats; t++)
			if (enc_war_can_declare(s, seat, t)) {
				a = act(&g, ENC_A_WAR, seat);
				a->other = t;
				offer(&g, a);
			}
	}
	hg_diags_free(&g.scratch);
	enc_free_state(g.trial);
	free(g.cand);
}

/* ------------------------------------------------------------ gen */
static const char *const names[ENC_MAX_SEATS] = {
	"Ana", "Bruno", "Carla", "Diego", "Elena", "Fausto"
};

int enc_gen_tags(const hg_gdata *data, hg_prng *r, unsigned players,
		 const char *variant, hg_game_record *rec, hg_diags *d)
{
	hg_pos nowhere = { NULL, 0, 0 };
	unsigned n = players ? players : 2;
	if (n < ENC_MIN_SEATS || n > ENC_MAX_SEATS) {
		hg_diag_add(d, HG_ERROR, nowhere, "enc.players",
			    "%u players; Encrucijada is for 2 to 6 (rule 1)", n);
		return -1;
	}
	int teams = 0;
	if (variant && !hg_name_eq(variant, "all-against-all")) {
		if (!hg_name_eq(variant, "teams")) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, nowhere, "enc.variant",
						  "unknown variant '%s'", variant);
			hg_diag_note(dg, "variants: all-against-all, teams");
			return -1;
		}
		teams = 1;
	}
	int bundled[64], nb = 0;
	for (size_t i = 0; i < data->ndecks && nb < 64; i++)
		if (hg_names_find(data->deck_names, data->decks[i]->id) == (int)i)
			bundled[nb++] = (int)i;
	if (nb == 0) {
		hg_diag_add(d, HG_ERROR, nowhere, "enc.deck-missing",
			    "no bundled deck to deal to the players");
		return -1;
	}
	/* (short of memory in a unit of work, a tag left out fails the call:
	 * the caller drops the record) */
	hg_buf b;
	hg_buf_init(&b);
	int rc = hg_record_try_set_tag(rec, "Game", "encrucijada");
	for (unsigned i = 0; i < n; i++)
		hg_buf_printf(&b, "%s%s", i ? "; " : "", names[i]);
	rc |= hg_record_try_set_tag(rec, "Players", b.data ? b.data : "");
	for (unsigned i = 0; i < n; i++) {
		char tag[16];
		snprintf(tag, sizeof tag, "Deck%u", i + 1);
		rc |= hg_record_try_set_tag(rec, tag, data->decks[bundled[hg_prng_below(r, (uint32_t)nb)]]->id);
	}
	if (teams && n >= 2) {
		hg_buf_clear(&b);
		for (int side = 0; side < 2; side++) {
			if (side)
				hg_buf_puts(&b, "; ");
			int first = 1;
			for (unsigned i = (unsigned)side; i < n; i += 2) {
				hg_buf_printf(&b, "%sP%u", first ? "" : " ", i + 1);
				first = 0;
			}
		}
		rc |= hg_record_try_set_tag(rec, "Teams", b.data ? b.data : "");
	}
	hg_buf_clear(&b);
	hg_buf_printf(&b, "%08x%08x", (unsigned)hg_prng_u32(r), (unsigned)hg_prng_u32(r));
	rc |= hg_record_try_set_tag(rec, "Seed", b.data ? b.data : "");
	hg_buf_free(&b);
	return rc ? -1 : 0;
}
