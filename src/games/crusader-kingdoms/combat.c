/* combat.c - Crusader Kingdoms: the attack (4.1) and the combat (4.2).
 *
 * One attack is one action of the record, carrying every step of 4.1: the
 * target and the area attacked from (step 1), the attacker's cards (2),
 * everyone's responses (3), the castles the defender turns (4), both rolls
 * with any die modifications (5, 4.2), the outcome and the attacker's
 * choice of bonus or castle (6).  The engine checks each against the
 * position and the dice against the Seed, then carries out steps 6 and 7.
 *
 * A side no player controls (section 8) fights by its script: its army
 * attacks with the cards on the table (8.3), and attacked with 3 dice or
 * more it answers with its first face-up response; the record must show
 * exactly that, and Líder's points spent as the script spends them.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ck.h"

int hg_ck_hits(const int *dice, int n)
{
	return ck_hits(dice, n);
}

static const char *area_id(const hg_state *s, int a)
{
	return s->map->areas[a].id;
}

static const char *faction_id(const hg_state *s, int f)
{
	return s->sc->factions[f].id;
}

/* The areas an attack may start from: the attacker's, and with an event
 * that allows it (Ataque conjunto) those of players of its religion. */
static uint64_t base_areas(const hg_state *s, int seat, const ck_effect *fx)
{
	uint64_t base = ck_areas_of(s, seat);
	if (fx && fx->from_ally)
		for (int f = 0; f < s->nsides; f++)
			if (f != seat && s->sc->factions[f].player &&
			    s->sc->factions[f].religion == s->sc->factions[seat].religion)
				base |= ck_areas_of(s, f);
	return base;
}

static uint64_t reach(const hg_state *s, uint64_t base)
{
	uint64_t m = 0;
	for (; base; base &= base - 1)	/* each area of base, lowest first */
		m |= s->map->areas[__builtin_ctzll(base)].adj;
	return m;
}

static void list_areas(const hg_state *s, uint64_t m, hg_buf *b)
{
	for (int a = 0; a < s->map->nareas; a++)
		if ((m >> a) & 1)
			hg_buf_printf(b, "%s%s", b->len ? ", " : "", area_id(s, a));
	if (!b->len)
		hg_buf_puts(b, "none");
}

/* Rule 4.1, step 1 (and 7.2, and a truce): may `seat` attack `target`? */
int ck_attack_target_ok(const hg_state *s, int seat, int target, const ck_effect *fx,
			hg_pos pos, hg_diags *d)
{
	int owner = s->owner[target];
	const ck_faction *f = &s->sc->factions[seat];
	if (owner == seat) {
		if (d)
			hg_diag_add(d, HG_ERROR, pos, "ck.attack-own",
				    "%s already holds '%s': the target belongs to another player or is independent (rule 4.1, step 1)",
				    f->id, area_id(s, target));
		return -1;
	}
	uint64_t own = ck_areas_of(s, seat);
	uint64_t base = base_areas(s, seat, fx);
	/* target borders base: borders are symmetric (the loader checks), so
	 * the target's own borders say it, without the reach of base */
	int ok = (s->map->areas[target].adj & base) != 0;
	if (!own && ((f->deploy >> target) & 1))
		ok = 1;
	if (!ok) {
		if (!d)
			return -1;
		hg_diag *dg;
		if (!own && !(fx && fx->from_ally)) {
			dg = hg_diag_add(d, HG_ERROR, pos, "ck.attack-border",
					 "%s controls no area, so it may attack only one of its deployment areas, and '%s' is not one (rule 4.1, step 1)",
					 f->id, area_id(s, target));
		} else {
			dg = hg_diag_add(d, HG_ERROR, pos, "ck.attack-border",
					 "'%s' does not border an area %s controls (rule 4.1, step 1)",
					 area_id(s, target), f->id);
		}
		hg_buf b;
		hg_buf_init(&b);
		uint64_t targets = reach(s, base) & ~own;
		if (!own)
			targets |= f->deploy;
		list_areas(s, targets, &b);
		hg_diag_note(dg, "%s may attack %s", f->id, b.data);
		hg_buf_free(&b);
		ck_rests_on_area(dg, s, target, "adjacent");
		return -1;
	}
	if (fx && fx->independent_only && owner >= 0) {
		if (d)
			hg_diag_add(d, HG_ERROR, pos, "ck.target",
				    "'%s' belongs to %s, and this event attacks only an independent area (rule 4.4)",
				    area_id(s, target), faction_id(s, owner));
		return -1;
	}
	if (owner >= 0 && ck_allied(s, seat, owner)) {
		if (d)
			hg_diag_add(d, HG_ERROR, pos, "ck.attack-ally",
				    "'%s' belongs to %s, an ally of %s: this scenario's allies do not attack each other (its 'allies'; ruling 37)",
				    area_id(s, target), faction_id(s, owner), f->id);
		return -1;
	}
	if (owner >= 0 && s->sc->factions[owner].religion == f->religion &&
	    s->sc->no_attack_between[f->religion]) {
		if (d)
			hg_diag_add(d, HG_ERROR, pos, "ck.attack-ally",
				    "'%s' belongs to %s, and in this scenario %s players may not attack each other (rule 7.2)",
				    area_id(s, target), faction_id(s, owner),
				    ck_religion_name(f->religion));
		return -1;
	}
	if (owner >= 0 && hg_ck_truce_between(s, seat, owner)) {
		if (d)
			hg_diag_add(d, HG_ERROR, pos, "ck.truce",
				    "'%s' belongs to %s, in truce with %s this turn: no attack between them (rule 4.4, P event)",
				    area_id(s, target), faction_id(s, owner), f->id);
		return -1;
	}
	return 0;
}

static int check_from(const hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
		      hg_diags *d)
{
	if (a->from < 0)
		return 0;
	uint64_t base = base_areas(s, seat, fx);
	if (((base >> a->from) & 1) && ck_borders(s, a->from, a->target))
		return 0;
	hg_diag *dg;
	if (!((base >> a->from) & 1))
		dg = hg_diag_add(d, HG_ERROR, a->from_pos, "ck.attack-from",
				 "%s cannot attack from '%s', which it does not control (rule 4.1, step 1)",
				 faction_id(s, seat), area_id(s, a->from));
	else
		dg = hg_diag_add(d, HG_ERROR, a->from_pos, "ck.attack-from",
				 "'%s' does not border %s (rule 4.1, step 1)", area_id(s, a->from),
				 area_id(s, a->target));
	hg_buf b;
	hg_buf_init(&b);
	list_areas(s, base & s->map->areas[a->target].adj, &b);
	hg_diag_note(dg, "%s may attack %s from %s", faction_id(s, seat), area_id(s, a->target),
		     b.data);
	hg_buf_free(&b);
	return -1;
}

/* One term of a side's dice count ("tropa-3 3", "shield 2"): `what` is a
 * card's or an area's name, or a term's message id (`term`), translated
 * only when a note writes it: most combats write none.  Both outlive the
 * combat. */
typedef struct why_term {
	const char *what;
	int n;
	int term;
} why_term;

/* The terms of one side: the attacker's event, cards and responses, or the
 * defender's responses, shield, castle, face-up events and turned castles. */
#define CK_MAX_WHY (2 * CK_MAX_LIST + 8)

/* What a combat gathers before the dice. */
typedef struct combat {
	int seat, defender, target;
	int army;		/* the attacker's cards are its army (8.3) */
	int dice[2];		/* the dice each side rolls */
	int points[2];		/* die modification points (Líder) */
	int regroup[2];
	why_term why[2][CK_MAX_WHY];	/* how the dice were counted, for notes */
	int nwhy[2];
	int used_r[2 * CK_MAX_LIST + 1], used_c[2 * CK_MAX_LIST + 1];
	int nused;
	int troop_r[CK_MAX_LIST], troop_c[CK_MAX_LIST];	/* the attacker's troops */
	int ntroops;
} combat;

/* The text is written only for the note that needs it (why_text). */
static void why_add_any(combat *c, int side, const char *what, int n, int term)
{
	if (c->nwhy[side] < CK_MAX_WHY) {
		why_term *t = &c->why[side][c->nwhy[side]++];
		t->what = what;
		t->n = n;
		t->term = term;
	}
}

/* A card or an area, by its name. */
static void why_add(combat *c, int side, const char *name, int n)
{
	why_add_any(c, side, name, n, 0);
}

/* A term, by its message id (N_). */
static void why_add_term(combat *c, int side, const char *msgid, int n)
{
	why_add_any(c, side, msgid, n, 1);
}

static void why_text(const combat *c, int side, hg_buf *b)
{
	for (int i = 0; i < c->nwhy[side]; i++) {
		const why_term *t = &c->why[side][i];
		hg_buf_printf(b, "%s%s %d", b->len ? " + " : "", t->term ? _(t->what) : t->what,
			      t->n);
	}
}

static void use_card(combat *c, int r, int card)
{
	c->used_r[c->nused] = r;
	c->used_c[c->nused] = card;
	c->nused++;
}

/* A response card on `side` (steps 2 and 3). */
static int add_response(hg_state *s, combat *c, int seat, const ck_item *it, int side,
			hg_pos pos, hg_diags *d)
{
	int r, card;
	/* A player who passed may still answer: responses are played "durante
	 * la ronda de otros jugadores" (2.1); 8.2 ends only its rounds
	 * (ruling 25). */
	if (ck_take_card(s, seat, it, N_("rule 4.1, step 3"), &r, &card, d) != 0)
		return -1;
	const ck_card *k = ck_card_at(s, r, card);
	if (k->type != CK_RESPONSE) {
		hg_diag_add(d, HG_ERROR, it->pos, "ck.card-kind",
			    k->type == CK_TROOP ? "'%s' is a troop, not a response: it cannot be added to a combat (rule 4.1, step 3)"
						: N_("'%s' is an event, not a response: it cannot be added to a combat (rule 4.1, step 3)"),
			    k->id);
		return -1;
	}
	int bit = side == 0 ? CK_SIDE_ATTACK : CK_SIDE_DEFENCE;
	if (!(k->sides & bit)) {
		hg_diag_add(d, HG_ERROR, pos, "ck.response-side",
			    side == 0 ? "'%s' cannot be used in the attack, only in the defence (card '%s', rule 4.1, step 3)"
				      : N_("'%s' cannot be used in the defence, only in the attack (card '%s', rule 4.1, step 3)"),
			    k->id, k->id);
		return -1;
	}
	ck_support sup = { 0, 0, 0, 0 };
	ck_response_support(k, &sup);
	if (sup.needs_castle && s->owner[c->target] < 0) {
		hg_diag_add(d, HG_ERROR, it->pos, "ck.response-condition",
			    "'%s' needs a castle to defend, and %s is independent (card '%s')",
			    k->id, area_id(s, c->target), k->id);
		return -1;
	}
	c->dice[side] += sup.dice;
	c->points[side] += sup.points;
	c->regroup[side] += sup.regroup;
	if (sup.dice)
		why_add(c, side, k->id, sup.dice);
	use_card(c, r, card);
	return 0;
}

/* Step 2: the attacker's troops and responses. */
static int attacker_cards(hg_state *s, combat *c, const ck_attack *a, hg_diags *d)
{
	for (int i = 0; i < a->nwith; i++) {
		const ck_item *it = &a->with[i];
		int own = s->sc->factions[c->seat].religion;
		int r = ck_item_religion(it, own);
		const ck_card *k = r >= 0 ? ck_card_at(s, r, it->card[r]) : NULL;
		if (k && k->type == CK_RESPONSE) {
			if (add_response(s, c, c->seat, it, 0, it->pos, d) != 0)
				return -1;
			continue;
		}
		int card;
		if (ck_take_card(s, c->seat, it, N_("rule 4.1, step 2"), &r, &card, d) != 0)
			return -1;
		k = ck_card_at(s, r, card);
		if (k->type == CK_EVENT) {
			hg_diag_add(d, HG_ERROR, it->pos, "ck.card-kind",
				    "'%s' is an event: play it with 'play', it does not fight (rule 4.1, step 2)",
				    k->id);
			return -1;
		}
		c->dice[0] += k->strength;
		why_add(c, 0, k->id, k->strength);
		c->troop_r[c->ntroops] = r;
		c->troop_c[c->ntroops] = card;
		c->ntroops++;
		use_card(c, r, card);
	}
	return 0;
}

/* 8.3: the army attacks with every card it holds; the record's list, when
 * written, is the army. */
static int army_cards(hg_state *s, combat *c, const ck_attack *a, hg_diags *d)
{
	ck_tableau *t = &s->p[c->seat].tab;
	int matched[CK_MAX_TABLE] = { 0 }, bad = a->nwith && a->nwith != t->narmy;
	hg_pos pos = a->nwith ? a->with[0].pos : a->target_pos;
	for (int i = 0; !bad && i < a->nwith; i++) {
		int k = 0;
		while (k < t->narmy && (matched[k] ||
					a->with[i].card[t->army[k].religion] != t->army[k].card))
			k++;
		if (k == t->narmy) {
			bad = 1;
			pos = a->with[i].pos;
		} else {
			matched[k] = 1;
		}
	}
	if (bad) {
		hg_buf b;
		hg_buf_init(&b);
		for (int k = 0; k < t->narmy; k++)
			hg_buf_printf(&b, "%s%s", k ? " " : "",
				      ck_card_at(s, t->army[k].religion, t->army[k].card)->id);
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "ck.script-army",
					  "the army of %s attacks with every card it holds, and the record lists others (rule 8.3)",
					  faction_id(s, c->seat));
		if (b.len)
			hg_diag_note(dg, "the army: %s", b.data);
		else
			hg_diag_note(dg, "the army: none");
		hg_buf_free(&b);
		return -1;
	}
	for (int k = 0; k < t->narmy; k++) {
		int r = t->army[k].religion, card = t->army[k].card;
		const ck_card *kc = ck_card_at(s, r, card);
		if (kc->type == CK_TROOP) {
			c->dice[0] += kc->strength;
			why_add(c, 0, kc->id, kc->strength);
			c->troop_r[c->ntroops] = r;
			c->troop_c[c->ntroops] = card;
			c->ntroops++;
		} else {
			ck_support sup = { 0, 0, 0, 0 };
			ck_response_support(kc, &sup);
			c->dice[0] += sup.dice;
			c->points[0] += sup.points;
			c->regroup[0] += sup.regroup;
			if (sup.dice)
				why_add(c, 0, kc->id, sup.dice);
		}
		use_card(c, r, card);
	}
	t->narmy = 0;
	return 0;
}

static const char *faction_phrase(const hg_state *s, int f)
{
	return f >= 0 ? faction_id(s, f) : "no side";
}

/* 8.3: a scripted side adds no response to its army's attack; attacked with
 * 3 dice or more, it answers "at once with the first response available"
 * (ck_script_response); otherwise with none.  The record must show exactly
 * that; the response comes from the table. */
static int scripted_responses(hg_state *s, combat *c, const ck_attack *a, hg_diags *d)
{
	int def = c->defender, due = -1;
	if (ck_scripted(s, def))
		due = ck_script_response(s, def, c->target, c->dice[0]);
	const ck_response *shown = NULL;
	for (int i = 0; i < a->nresp; i++) {
		const ck_response *r = &a->resp[i];
		if (!ck_scripted(s, r->seat))
			continue;
		const char *why = NULL;
		if (r->seat != def)
			why = _("it answers only attacks on its own areas, in their defence");
		else if (r->side != CK_SIDE_DEFENCE)
			why = _("its face-up responses serve only its defence");
		else if (shown)
			why = _("it answers with one response");
		else if (due < 0)
			why = c->dice[0] < 3 ? _("it answers only an attack of 3 dice or more") :
			      _("it has no face-up response for this defence");
		if (why) {
			hg_diag_add(d, HG_ERROR, r->pos, "ck.script-response",
				    "%s adds no '%s' here: %s (rule 8.3)", faction_id(s, r->seat),
				    ck_item_name(s, &r->card, s->sc->factions[r->seat].religion), why);
			return -1;
		}
		shown = r;
	}
	if (due < 0)
		return 0;
	ck_tableau *t = &s->p[def].tab;
	ck_cardref want = t->reserve[due];
	const ck_card *k = ck_card_at(s, want.religion, want.card);
	if (!shown || shown->card.card[want.religion] != want.card) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, shown ? shown->card.pos : a->target_pos,
					  "ck.script-response",
					  "attacked with %d dice, %s answers at once with its first face-up response, '%s' (rule 8.3)",
					  c->dice[0], faction_phrase(s, def), k->id);
		hg_diag_note(dg, "write '& %s %s defence'", faction_id(s, def), k->id);
		return -1;
	}
	ck_table_remove(t->reserve, &t->nreserve, due);
	ck_support sup = { 0, 0, 0, 0 };
	ck_response_support(k, &sup);
	c->dice[1] += sup.dice;
	c->points[1] += sup.points;
	c->regroup[1] += sup.regroup;
	if (sup.dice)
		why_add(c, 1, k->id, sup.dice);
	use_card(c, want.religion, want.card);	/* "once used, they discard it" */
	return 0;
}

/* Step 4: the defender turns +1 castles next to the target, one die each. */
static int turn_castles(hg_state *s, combat *c, const ck_attack *a, hg_diags *d)
{
	if (a->nturned && ck_scripted(s, c->defender) && !s->sc->script_turns_castles) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->turned[0].pos, "ck.script-turn",
					  "%s turns no castle for its defence: the script of rule 8.3 does not (ruling 32)",
					  faction_id(s, c->defender));
		hg_diag_note(dg, "the text is silent; a scenario with 'script-turns-castles: true' lets the record turn them");
		return -1;
	}
	for (int i = 0; i < a->nturned; i++) {
		int x = a->turned[i].v;
		const char *why = NULL;
		if (c->defender < 0)
			why = _("an independent area has no defender to turn castles");
		else if (s->owner[x] != c->defender)
			why = _("the castle there is not the defender's");
		else if (!s->plus1[x])
			why = _("the castle there is not on its +1 side (or is already turned)");
		else if (!ck_borders(s, x, c->target))
			why = _("it does not border the attacked area");
		if (why) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->turned[i].pos, "ck.turn-castle",
						  "the castle in '%s' cannot be turned for the defence of %s: %s (rule 4.1, step 4)",
						  area_id(s, x), area_id(s, c->target), why);
			if (c->defender >= 0) {
				uint64_t m = 0;
				for (int y = 0; y < s->map->nareas; y++)
					if (s->owner[y] == c->defender && s->plus1[y] &&
					    ck_borders(s, y, c->target))
						m |= (uint64_t)1 << y;
				hg_buf b;
				hg_buf_init(&b);
				list_areas(s, m, &b);
				hg_diag_note(dg, "%s can turn %s", faction_id(s, c->defender), b.data);
				hg_buf_free(&b);
			}
			return -1;
		}
		s->plus1[x] = 0;
		c->dice[1]++;
		why_add(c, 1, area_id(s, x), 1);
	}
	return 0;
}

static void dice_text(const int *v, int n, hg_buf *b)
{
	for (int i = 0; i < n; i++)
		hg_buf_printf(b, "%s%d", i ? " " : "", v[i]);
	if (n == 0)
		hg_buf_puts(b, "no dice");
}

/* One side's roll (4.2): with a Seed, its dice drawn from the stream
 * "dice" (the attacker's roll before the defender's); the record's, when
 * written, against the count and the Seed.  out gets the dice the side
 * rolled and *faces_out their count of each face (ck_face_bit).  Returns
 * 1 when they are known, 0 when they are neither written nor seeded, -1
 * after a diagnostic.  The Seed's dice and the record's are read in one
 * loop: a loop over a roll ends at a count that follows no pattern, and
 * each loop's end was a mispredicted jump. */
static int roll_side(hg_state *s, combat *c, int side, const ck_roll *roll, int *out,
		     uint64_t *faces_out, hg_diags *d)
{
	int n = c->dice[side];
	if (!roll->given) {
		if (!s->seeded)
			return n == 0;	/* no dice: nothing hidden (ruling 6) */
		/* (the faces in a register, not loaded and stored again
		 * around every die) */
		uint64_t faces_rolled = 0;
		for (int i = 0; i < n; i++) {
			int x = (int)hg_prng_wide_die(&s->dice, 6);
			out[i] = x;
			faces_rolled += ck_face_bit(x);
		}
		*faces_out = faces_rolled;
		return 1;
	}
	if (roll->ndice != n) {
		int who = side == 0 ? c->seat : c->defender;
		const char *name = who >= 0 ? faction_id(s, who) : _("the independent area");
		/* TRANSLATORS: the first %s is a faction, or "the independent area" */
		hg_diag *dg = hg_diag_add(d, HG_ERROR, roll->pos, "ck.dice-count",
					  side == 0 ? "%s rolls %d attack dice, the record shows %d (rule 4.2)"
						    : N_("%s rolls %d defence dice, the record shows %d (rule 4.2)"),
					  name, c->dice[side], roll->ndice);
		hg_buf why;
		hg_buf_init(&why);
		why_text(c, side, &why);
		hg_diag_note(dg, side == 0 ? "attack: %s" : N_("defence: %s"), why.data);
		hg_buf_free(&why);
		if (side == 1)
			ck_rests_on_area(dg, s, c->target, "defence");
		return -1;
	}
	/* the record's count of each face, and whether a die is out of
	 * range, in one pass without a branch on each die (a die's face
	 * is a byte of the count only once it is known to be 1 to 6); with
	 * a Seed, its dice and their count in the same pass */
	int seeded[CK_MAX_LIST];
	uint64_t faces = 0, seeded_faces = 0;
	int bad = 0;
	if (s->seeded) {
		for (int i = 0; i < n; i++) {
			int x = (int)hg_prng_wide_die(&s->dice, 6);
			seeded[i] = x;
			seeded_faces += ck_face_bit(x);
			int v = roll->dice[i].v;
			bad |= (v < 1) | (v > 6);
			out[i] = v;
			faces += ck_face_bit(v & 7);
		}
	} else {
		for (int i = 0; i < n; i++) {
			int v = roll->dice[i].v;
			bad |= (v < 1) | (v > 6);
			out[i] = v;
			faces += ck_face_bit(v & 7);
		}
	}
	for (int i = 0; bad && i < n; i++) {
		int v = roll->dice[i].v;
		if (v < 1 || v > 6) {
			hg_diag_add(d, HG_ERROR, roll->dice[i].pos, "ck.die-range",
				    "a die shows 1 to 6, not %d (rule 4.2)", v);
			return -1;
		}
	}
	*faces_out = faces;
	if (s->seeded) {
		/* The same dice in any order: the same count of each face (the
		 * record's are 1 to 6, checked above, and so are the Seed's;
		 * as many dice, checked above). */
		if (faces != seeded_faces) {
			hg_buf t;
			hg_buf_init(&t);
			dice_text(seeded, n, &t);
			hg_diag_add(d, HG_ERROR, roll->pos, "ck.dice-seed",
				    side == 0 ? "the Seed rolls %s for the attack, not what the record shows (herald-crusader-kingdoms(7), CHANCE)"
					      : N_("the Seed rolls %s for the defence, not what the record shows (herald-crusader-kingdoms(7), CHANCE)"),
				    t.data);
			hg_buf_free(&t);
			return -1;
		}
	}
	return 1;
}

/* Die modifications (Líder): each raises one die of the roll; together
 * they add at most the points the side's responses give; no die passes 6. */
static int apply_mods(const hg_state *s, const combat *c, int side, const ck_roll *roll,
		      int *v, int n, hg_diags *d)
{
	(void)s;
	if (roll->nmods == 0)
		return 0;
	if (c->points[side] == 0) {
		hg_diag_add(d, HG_ERROR, roll->mods[0].pos, "ck.mod-missing",
			    side == 0 ? "no card modifies the attack's dice: no response giving points supports it (rule 4.1, step 3; ruling 10)"
				      : N_("no card modifies the defence's dice: no response giving points supports it (rule 4.1, step 3; ruling 10)"));
		return -1;
	}
	int spent = 0;
	int changed[CK_MAX_LIST] = { 0 };
	for (int m = 0; m < roll->nmods; m++) {
		const ck_mod *md = &roll->mods[m];
		int i = 0;
		while (i < n && (changed[i] || v[i] != md->from))
			i++;
		if (i == n) {
			hg_diag_add(d, HG_ERROR, md->pos, "ck.mod-die",
				    side == 0 ? "no unmodified die of the attack shows %d (rule 4.2; ruling 10)"
					      : N_("no unmodified die of the defence shows %d (rule 4.2; ruling 10)"),
				    md->from);
			return -1;
		}
		if (md->to <= md->from || md->to > 6) {
			hg_diag_add(d, HG_ERROR, md->pos, "ck.mod-die",
				    "a die can be raised from %d to %d to 6, not to %d (rule 4.2; ruling 10)", md->from,
				    md->from + 1, md->to);
			return -1;
		}
		spent += md->to - md->from;
		v[i] = md->to;
		changed[i] = 1;
	}
	if (spent > c->points[side]) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, roll->mods[0].pos, "ck.mod-points",
					  side == 0 ? "the attack's dice are raised by %d points, and the responses supporting it give %d (rule 4.2; ruling 10)"
						    : N_("the defence's dice are raised by %d points, and the responses supporting it give %d (rule 4.2; ruling 10)"),
					  spent, c->points[side]);
		hg_diag_note(dg, "Líder: \"add a total of 3 points, split as you wish, to the dice of one roll\"");
		return -1;
	}
	return 0;
}

/* The script spends Líder's points (ruling 32): the record's modifications
 * must be those. */
static int check_script_mods(const hg_state *s, const combat *c, int side, const ck_roll *roll,
			     const int *v, int n, hg_diags *d)
{
	int who = side == 0 ? c->seat : c->defender;
	if (c->points[side] == 0 || !ck_scripted(s, who) || !s->sc->script_leader_rule)
		return 0;	/* nearly always no points */
	ck_mod want[CK_MAX_LIST];
	int k = hg_ck_script_mods(v, n, c->points[side], want);
	int same = k == roll->nmods;
	int used[CK_MAX_LIST] = { 0 };
	for (int m = 0; same && m < roll->nmods; m++) {
		int j = 0;
		while (j < k && (used[j] || want[j].from != roll->mods[m].from ||
				 want[j].to != roll->mods[m].to))
			j++;
		if (j == k)
			same = 0;
		else
			used[j] = 1;
	}
	if (same)
		return 0;
	hg_buf b;
	hg_buf_init(&b);
	for (int j = 0; j < k; j++)
		hg_buf_printf(&b, "%s%d>%d", j ? " " : "mod ", want[j].from, want[j].to);
	hg_diag *dg = hg_diag_add(d, HG_ERROR, roll->nmods ? roll->mods[0].pos : roll->pos,
				  "ck.script-mods",
				  side == 0 ? "the script spends the %d points of Líder on the attack of %s this way: %s (rules 8.3, 8.4; ruling 32)"
					    : N_("the script spends the %d points of Líder on the defence of %s this way: %s (rules 8.3, 8.4; ruling 32)"),
				  c->points[side], faction_id(s, who),
				  b.len ? b.data : _("none, no die can be raised to a hit"));
	hg_diag_note(dg, "the dice nearest below 4 are raised to 4, the cheapest first, as far as the points go");
	hg_diag_note(dg, "the text is silent; a scenario with 'script-leader-rule: false' lets the record spend them");
	hg_buf_free(&b);
	return -1;
}

/* Step 7, and Reagrupamiento: the used cards go to the discard pile, but
 * the strongest troops of a regrouped attack go back to the hand (ruling
 * 13), or stay in the army (8.4). */
static void discard_used(hg_state *s, combat *c)
{
	int back = c->regroup[0];
	for (int k = 0; k < back && c->ntroops > 0; k++) {
		int best = 0;
		for (int i = 1; i < c->ntroops; i++)
			if (ck_card_at(s, c->troop_r[i], c->troop_c[i])->strength >
			    ck_card_at(s, c->troop_r[best], c->troop_c[best])->strength)
				best = i;
		for (int u = 0; u < c->nused; u++)
			if (c->used_r[u] == c->troop_r[best] && c->used_c[u] == c->troop_c[best]) {
				c->used_c[u] = -1;
				break;
			}
		if (c->army)
			ck_table_push(s->p[c->seat].tab.army, &s->p[c->seat].tab.narmy,
				      c->troop_r[best], c->troop_c[best]);
		else
			ck_hand_add(&s->p[c->seat].hand, c->troop_r[best], c->troop_c[best]);
		c->troop_r[best] = c->troop_r[c->ntroops - 1];
		c->troop_c[best] = c->troop_c[c->ntroops - 1];
		c->ntroops--;
	}
	for (int u = 0; u < c->nused; u++)
		if (c->used_c[u] >= 0)
			ck_pile_discard(s, c->used_r[u], c->used_c[u]);
}

/* Step 6: the conquest, the attacker's choice, the defender's loss. */
static int conquer(hg_state *s, combat *c, const ck_attack *a, hg_diags *d)
{
	int seat = c->seat, t = c->target;
	ck_set_owner(s, t, seat);
	s->plus1[t] = 0;
	if (!s->sc->bonus_from_conquest) {
		if (a->choice != CK_CHOICE_NONE) {
			hg_diag_add(d, HG_ERROR, a->castle_pos, "ck.choice",
				    "in this scenario conquests move no bonus and turn no castle: write just 'won' (rule 8.2)");
			return -1;
		}
		return 0;
	}
	if (a->choice == CK_CHOICE_NONE) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->outcome_pos, "ck.choice",
					  "%s won: it advances its bonus or turns a castle to +1; write 'won bonus' or 'won castle AREA' (rule 4.1, step 6; ruling 11)",
					  faction_id(s, seat));
		hg_diag_note(dg, "the new castle in %s may be the one turned", area_id(s, t));
		return -1;
	}
	if (a->choice == CK_CHOICE_BONUS) {
		if (hg_ck_bonus_gain(s, seat, 1, NULL, a->outcome_pos, d) != 0)
			return -1;
	} else {
		int x = a->castle;
		if (s->owner[x] != seat || s->plus1[x]) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, a->castle_pos, "ck.choice",
						  "%s has no castle on its regular side in '%s' to turn to +1 (rule 4.1, step 6)",
						  faction_id(s, seat), area_id(s, x));
			uint64_t m = ck_areas_of(s, seat);
			for (int y = 0; y < s->map->nareas; y++)
				if (s->plus1[y])
					m &= ~((uint64_t)1 << y);
			hg_buf b;
			hg_buf_init(&b);
			list_areas(s, m, &b);
			hg_diag_note(dg, "castles that can turn: %s", b.data);
			hg_buf_free(&b);
			return -1;
		}
		s->plus1[x] = 1;
	}
	if (c->defender >= 0)
		hg_ck_bonus_lose(s, c->defender, 1);
	return 0;
}

/* The hits a side's hidden roll ('?', no Seed) can make, in [*lo, *hi]
 * (issue 25).  Each die's six faces are weighed by what they decide: 1 to
 * 3 no hit, 4 to 6 a hit, so n dice make any count from 0 to n.  A
 * modification written on hidden dice needs a die showing its `from`: it
 * fixes that die's hit (to 4 or more) and leaves the others free.  The
 * script spends Líder's points itself (ruling 32): at the least it raises
 * a die of 1 for every 3 points.  *claims is set when the record says
 * something of the dice (their hits, a modification, the script's
 * modifications) that some faces contradict.  Checks what no face can mend
 * (more modifications than dice, points the side lacks, written hits out
 * of the range) and returns -1 after a diagnostic. */
static int hidden_hits(const hg_state *s, const combat *c, int side, const ck_roll *roll,
		       int *lo, int *hi, int *claims, hg_diags *d)
{
	int n = c->dice[side], who = side == 0 ? c->seat : c->defender;
	int scripted = who >= 0 && ck_scripted(s, who);
	*lo = 0;
	*hi = n;
	*claims = n > 0 && (roll->hits >= 0 || roll->nmods > 0);
	if (scripted && s->sc->script_leader_rule && c->points[side] > 0) {
		*lo = c->points[side] / 3 < n ? c->points[side] / 3 : n;
		*claims = n > 0;
	} else if (roll->nmods) {
		if (c->points[side] == 0) {
			hg_diag_add(d, HG_ERROR, roll->mods[0].pos, "ck.mod-missing",
				    side == 0 ? "no card modifies the attack's dice: no response giving points supports it (rule 4.1, step 3; ruling 10)"
					      : N_("no card modifies the defence's dice: no response giving points supports it (rule 4.1, step 3; ruling 10)"));
			return -1;
		}
		int spent = 0, sure = 0;
		for (int m = 0; m < roll->nmods; m++) {
			const ck_mod *md = &roll->mods[m];
			if (m >= n) {
				hg_diag_add(d, HG_ERROR, md->pos, "ck.mod-die",
					    side == 0 ? "the attack rolls %d dice and cannot raise more (rule 4.2; ruling 10)"
						      : N_("the defence rolls %d dice and cannot raise more (rule 4.2; ruling 10)"),
					    n);
				return -1;
			}
			if (md->from < 1 || md->to <= md->from || md->to > 6) {
				hg_diag_add(d, HG_ERROR, md->pos, "ck.mod-die",
					    side == 0 ? "no die of the attack can be raised from %d to %d, whatever it shows (rule 4.2; ruling 10)"
						      : N_("no die of the defence can be raised from %d to %d, whatever it shows (rule 4.2; ruling 10)"),
					    md->from, md->to);
				return -1;
			}
			spent += md->to - md->from;
			sure += md->to >= 4;
		}
		if (spent > c->points[side]) {
			hg_diag_add(d, HG_ERROR, roll->mods[0].pos, "ck.mod-points",
				    side == 0 ? "the attack's dice are raised by %d points, and the responses supporting it give %d (rule 4.2; ruling 10)"
					      : N_("the defence's dice are raised by %d points, and the responses supporting it give %d (rule 4.2; ruling 10)"),
				    spent, c->points[side]);
			return -1;
		}
		*lo = sure;
		*hi = sure + n - roll->nmods;
	}
	if (roll->hits < 0)
		return 0;
	if (roll->hits < *lo || roll->hits > *hi) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, roll->hits_pos, "ck.hits-wrong",
					  side == 0 ? "the attack's %d hidden dice make %d to %d hits, whatever they show, not %d (rule 4.2)"
						    : N_("the defence's %d hidden dice make %d to %d hits, whatever they show, not %d (rule 4.2)"),
					  n, *lo, *hi, roll->hits);
		hg_diag_note(dg, "each 4, 5 or 6 is a hit");
		return -1;
	}
	*lo = *hi = roll->hits;
	return 0;
}

/* The outcome of a combat some of whose dice are hidden: the written hits
 * decide it where they are written (4.2: "Si hace el mismo número o menos,
 * gana el defensor"); unverified when some faces give the written
 * outcome and others do not, or contradict what the record says of the
 * dice (`claims`). */
static int hidden_outcome(const ck_attack *a, const int lo[2], const int hi[2], int claims,
			  hg_diags *d)
{
	int can_win = hi[0] > lo[1], can_lose = lo[0] <= hi[1];
	if (a->won ? !can_win : !can_lose) {
		int att = a->won ? hi[0] : lo[0], def = a->won ? lo[1] : hi[1];
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->outcome_pos, "ck.outcome-wrong",
					  a->won ? hg_ngettext("the attacker makes at most %d hit and the defender at least %d: the defender wins, whatever the hidden dice show (rule 4.2)",
							       "the attacker makes at most %d hits and the defender at least %d: the defender wins, whatever the hidden dice show (rule 4.2)",
							       (unsigned long)att)
						 : hg_ngettext("the attacker makes at least %d hit and the defender at most %d: the attacker wins, whatever the hidden dice show (rule 4.2)",
							       "the attacker makes at least %d hits and the defender at most %d: the attacker wins, whatever the hidden dice show (rule 4.2)",
							       (unsigned long)att),
					  att, def);
		hg_diag_note(dg, "the attacker wins only with more hits than the defender");
		return -1;
	}
	if (can_win && can_lose)
		hg_diag_add(d, HG_UNVERIFIED, a->roll[0].pos, "ck.hidden-dice",
			    "the dice are not in the record and there is no Seed: the outcome is taken as written (rule 4.2)");
	else if (claims)
		hg_diag_add(d, HG_UNVERIFIED, a->roll[0].pos, "ck.hidden-dice",
			    "the dice are not in the record and there is no Seed: the hits and modifications are taken as written (rule 4.2)");
	return 0;
}

static int resolve(hg_state *s, combat *c, const ck_attack *a, const ck_effect *fx, hg_diags *d)
{
	int seat = c->seat;
	if (ck_attack_target_ok(s, seat, a->target, fx, a->target_pos, d) != 0 ||
	    check_from(s, seat, a, fx, d) != 0)
		return -1;
	if (fx && fx->n) {
		c->dice[0] += fx->n;
		why_add_term(c, 0, N_("event"), fx->n);
	}
	if ((c->army ? army_cards(s, c, a, d) : attacker_cards(s, c, a, d)) != 0)
		return -1;
	for (int i = 0; i < a->nresp; i++) {
		const ck_response *r = &a->resp[i];
		if (ck_scripted(s, r->seat))
			continue;	/* after the attack's dice are known */
		if (add_response(s, c, r->seat, &r->card, r->side == CK_SIDE_ATTACK ? 0 : 1,
				 r->pos, d) != 0)
			return -1;
	}
	if (scripted_responses(s, c, a, d) != 0)
		return -1;
	/* 4.2: the area's shield, +1 for a +1 castle there, then the turns. */
	const ck_area *area = &s->map->areas[c->target];
	c->dice[1] += area->defence;
	why_add_term(c, 1, N_("shield"), area->defence);
	if (c->defender >= 0 && s->plus1[c->target]) {
		c->dice[1]++;
		why_add_term(c, 1, N_("+1 castle"), 1);
	}
	if (c->defender >= 0) {
		int extra = hg_ck_persistent_defence(s, c->defender);
		if (extra) {
			c->dice[1] += extra;
			why_add_term(c, 1, N_("face-up events"), extra);
		}
	}
	if (turn_castles(s, c, a, d) != 0)
		return -1;
	/* Ruling 6: an attack commits a card (4.1, step 2), which may be a
	 * response alone ("se pueden usar solas", 2.1) and give no die; an
	 * event that attacks is itself the card. */
	if (!c->army && !fx && a->nwith == 0) {
		hg_diag_add(d, HG_ERROR, a->target_pos, "ck.attack-no-card",
			    "the attack commits no card: lay at least one troop or response face down (rule 4.1, step 2; ruling 6)");
		return -1;
	}
	if (c->dice[0] > CK_MAX_LIST || c->dice[1] > CK_MAX_LIST) {
		hg_diag_add(d, HG_ERROR, a->target_pos, "ck.too-many",
			    "more than %d dice in one roll", CK_MAX_LIST);
		return -1;
	}

	/* 4.2: the rolls.  The Seed rolls the attacker's dice, then the
	 * defender's.  Each side's hits lie in [lo, hi]: one value for dice
	 * known, a range for dice hidden. */
	int v[2][CK_MAX_LIST], known[2], lo[2], hi[2], claims[2] = { 0, 0 };
	uint64_t faces[2] = { 0, 0 };
	for (int side = 0; side < 2; side++) {
		known[side] = roll_side(s, c, side, &a->roll[side], v[side], &faces[side], d);
		if (known[side] < 0)
			return -1;
	}
	for (int side = 0; side < 2; side++) {
		const ck_roll *roll = &a->roll[side];
		if (!known[side]) {
			if (hidden_hits(s, c, side, roll, &lo[side], &hi[side], &claims[side], d) != 0)
				return -1;
			continue;
		}
		if (check_script_mods(s, c, side, roll, v[side], c->dice[side], d) != 0 ||
		    apply_mods(s, c, side, roll, v[side], c->dice[side], d) != 0)
			return -1;
		/* unmodified (nearly always), the hits are counted with the
		 * faces, not again die by die */
		int hits = roll->nmods ? ck_hits(v[side], c->dice[side]) : ck_face_hits(faces[side]);
		if (roll->hits >= 0 && roll->hits != hits) {
			hg_buf t;
			hg_buf_init(&t);
			dice_text(v[side], c->dice[side], &t);
			hg_diag *dg = hg_diag_add(d, HG_ERROR, roll->hits_pos, "ck.hits-wrong",
						  side == 0 ? hg_ngettext("the attack's dice %s make %d hit, not %d (rule 4.2)",
									  "the attack's dice %s make %d hits, not %d (rule 4.2)",
									  (unsigned long)hits)
							    : hg_ngettext("the defence's dice %s make %d hit, not %d (rule 4.2)",
									  "the defence's dice %s make %d hits, not %d (rule 4.2)",
									  (unsigned long)hits),
						  t.data, hits, roll->hits);
			hg_diag_note(dg, "each 4, 5 or 6 is a hit");
			hg_buf_free(&t);
			return -1;
		}
		lo[side] = hi[side] = hits;
	}
	int won = a->won;
	if (!known[0] || !known[1]) {
		if (hidden_outcome(a, lo, hi, claims[0] || claims[1], d) != 0)
			return -1;
	} else if ((won = lo[0] > lo[1]) != a->won) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->outcome_pos, "ck.outcome-wrong",
					  "with %d hits against %d the %s wins, not the %s (rule 4.2)",
					  lo[0], lo[1], won ? "attacker" : "defender",
					  won ? "defender" : "attacker");
		hg_diag_note(dg, "the attacker wins only with more hits than the defender");
		return -1;
	}
	if (won) {
		if (conquer(s, c, a, d) != 0)
			return -1;
	} else if (a->choice != CK_CHOICE_NONE) {
		hg_diag_add(d, HG_ERROR, a->castle_pos, "ck.choice",
			    "the attack failed: there is no bonus or castle to choose (rule 4.1, step 6)");
		return -1;
	}
	discard_used(s, c);
	if (won)
		hg_ck_check_sudden(s, seat);
	return 0;
}

static int attack_resolve(hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
			  int army, hg_diags *d)
{
	combat c;
	/* the arrays are filled as far as their counts go */
	memset(&c, 0, offsetof(combat, why));
	c.nwhy[0] = c.nwhy[1] = 0;
	c.nused = c.ntroops = 0;
	c.army = army;
	c.seat = seat;
	c.target = a->target;
	c.defender = s->owner[a->target];
	return resolve(s, &c, a, fx, d);
}

int ck_attack_resolve(hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
		      hg_diags *d)
{
	return attack_resolve(s, seat, a, fx, 0, d);
}

int ck_army_attack(hg_state *s, int seat, const ck_attack *a, hg_diags *d)
{
	return attack_resolve(s, seat, a, NULL, 1, d);
}

/* The dice each side would roll (for legal()): the attacker's committed
 * cards and everyone's responses as written, the position as it stands. */
void ck_dice_counts(const hg_state *s, int seat, const ck_attack *a, const ck_effect *fx,
		    int army, int counts[2])
{
	int own = s->sc->factions[seat].religion;
	counts[0] = fx ? fx->n : 0;
	const ck_tableau *t = &s->p[seat].tab;
	for (int i = 0; army && i < t->narmy; i++) {
		const ck_card *k = ck_card_at(s, t->army[i].religion, t->army[i].card);
		ck_support sup = { 0, 0, 0, 0 };
		ck_response_support(k, &sup);
		counts[0] += k->type == CK_TROOP ? k->strength : sup.dice;
	}
	counts[1] = s->map->areas[a->target].defence;
	int defender = s->owner[a->target];
	if (defender >= 0) {
		counts[1] += s->plus1[a->target] + hg_ck_persistent_defence(s, defender);
	}
	counts[1] += a->nturned;
	for (int i = 0; i < a->nwith; i++) {
		int r = ck_item_religion(&a->with[i], own);
		const ck_card *k = ck_card_at(s, r, a->with[i].card[r]);
		if (k->type == CK_TROOP) {
			counts[0] += k->strength;
		} else {
			ck_support sup = { 0, 0, 0, 0 };
			ck_response_support(k, &sup);
			counts[0] += sup.dice;
		}
	}
	for (int i = 0; i < a->nresp; i++) {
		int ro = s->sc->factions[a->resp[i].seat].religion;
		int r = ck_item_religion(&a->resp[i].card, ro);
		ck_support sup = { 0, 0, 0, 0 };
		ck_response_support(ck_card_at(s, r, a->resp[i].card.card[r]), &sup);
		counts[a->resp[i].side == CK_SIDE_ATTACK ? 0 : 1] += sup.dice;
	}
}

/* Rule 4, "Ataque": the attack action. */
int ck_apply_attack(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (ck_attack_resolve(s, a->seat, &a->attack, NULL, d) != 0)
		return -1;
	ck_next_round(s, 0);
	return 0;
}
