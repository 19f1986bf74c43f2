/* script.c - Crusader Kingdoms: the round of a side no player controls,
 * played by the script of rule 8.3 with the clarifications of 8.4.
 *
 * "Each round they reveal the first of the cards they drew that turn and
 * play it": an event applies at once, against the player whose round it
 * is (8.2); a response goes face up with the others, in order; a troop
 * joins the single army.  "After playing the card, if they have an army on
 * the table, they roll a die; if the result is below the sum of the troop
 * points of the army, they attack the adjacent area (controlled by the
 * crusader in round) with the lowest identification number", and discard
 * the attacking cards.  They do not roll when the crusaders hold no area.
 *
 * Nothing in it is a choice, so the record must show exactly what the
 * script dictates: the card (the next one drawn), where it goes, the
 * event's target and area, the die, whether the army attacks and where.
 * One action of the record is one such round:
 *   musulmanes: reveal tropa-2 army / 3 attack turbessel from edesa
 *               / 2 4 5 1 = 2 vs 3 6 = 1 / won
 */
#include "config.h"

#include "ck.h"

static const char *faction_id(const hg_state *s, int f)
{
	return s->sc->factions[f].id;
}

static const char *area_id(const hg_state *s, int a)
{
	return s->map->areas[a].id;
}

static void stack_note(const hg_state *s, hg_diag *dg, int seat)
{
	hg_buf b;
	hg_buf_init(&b);
	ck_tableau_describe(s, seat, &b);
	hg_diag_note(dg, "%s: %s", faction_id(s, seat), b.data);
	hg_buf_free(&b);
}

/* 8.3: "they reveal the first of the cards they drew that turn". */
static int reveal_card(hg_state *s, int seat, const ck_item *it, int *r, int *c, hg_diags *d)
{
	const ck_tableau *t = &s->p[seat].tab;
	ck_cardref top = t->stack[0];
	int own = s->sc->factions[seat].religion;
	if (top.card != CK_UNKNOWN) {
		if (it->card[top.religion] != top.card) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, it->pos, "ck.script-card",
						  "the next card of %s is '%s', not '%s': it reveals the cards it drew in the order drawn (rule 8.3)",
						  faction_id(s, seat), ck_card_at(s, top.religion, top.card)->id,
						  ck_item_name(s, it, own));
			stack_note(s, dg, seat);
			return -1;
		}
		*r = top.religion;
		*c = top.card;
		ck_stack_reveal_top(s, seat);
		return 0;
	}
	/* The record did not show this card when it was drawn. */
	if (it->card[own] < 0) {
		hg_diag_add(d, HG_ERROR, it->pos, "ck.unknown-card",
			    "'%s' is not a card of the %s deck %s draws from (rule 8.3)",
			    ck_item_name(s, it, own), s->data->decks[own].id, faction_id(s, seat));
		return -1;
	}
	if (ck_available(s, own, it->card[own]) < 1) {
		hg_diag_add(d, HG_ERROR, it->pos, "ck.card-exhausted",
			    "'%s' cannot be the next card of %s: every copy of it is elsewhere (rule 8.3)",
			    ck_card_at(s, own, it->card[own])->id, faction_id(s, seat));
		return -1;
	}
	hg_diag_add(d, HG_UNVERIFIED, it->pos, "ck.hidden-card",
		    "cannot verify that '%s' is the next card of %s: the record did not show the cards it drew (rule 8.3)",
		    ck_card_at(s, own, it->card[own])->id, faction_id(s, seat));
	*r = own;
	*c = it->card[own];
	ck_stack_reveal_top(s, seat);
	return 0;
}

static const char *const place_words[] = { "", "army", "response", "discarded" };

/* 8.3, 8.4: where the card goes; the record's word must say so. */
static int deploy(hg_state *s, int seat, int r, int c, const ck_reveal *rv, int stolen,
		  hg_diags *d)
{
	const ck_card *k = ck_card_at(s, r, c);
	int want = hg_ck_script_placement(s, seat, r, c, stolen);
	if (rv->place != want) {
		const char *why;
		const char *rule = stolen || k->type == CK_RESPONSE ? _("rule 8.4") : _("rule 8.3");
		switch (want) {
		case CK_PLACE_ARMY:
			why = k->type == CK_TROOP ? _("a troop joins the army") :
			      _("with an army on the table, it joins the army");
			break;
		case CK_PLACE_RESPONSE:
			why = k->script == CK_SP_RESPONSE ? _("a response goes face up with the others") :
			      _("there is no army: it is played as a response");
			break;
		case CK_PLACE_DISCARDED:
			why = k->type == CK_EVENT ? _("an event taken that would not act in the side's favour is discarded") :
			      _("there is no army: it is discarded");
			break;
		default:
			why = _("an event is played at once, its arguments showing what it does");
			break;
		}
		hg_diag *dg = hg_diag_add(d, HG_ERROR, rv->place ? rv->place_pos : rv->card.pos,
					  "ck.script-place",
					  rv->place ? "'%s' does not go there: %s (%s)"
						    : N_("'%s' goes somewhere the record does not say: %s (%s)"),
					  k->id, why, rule);
		if (want != CK_PLACE_NONE)
			hg_diag_note(dg, "write '%s' after the card", place_words[want]);
		else
			hg_diag_note(dg, "write no place after an event that is played");
		return -1;
	}
	const ck_tableau *t = &s->p[seat].tab;
	if ((want == CK_PLACE_ARMY && t->narmy >= CK_MAX_TABLE) ||
	    (want == CK_PLACE_RESPONSE && t->nreserve >= CK_MAX_TABLE)) {
		hg_diag_add(d, HG_ERROR, rv->card.pos, "ck.too-many",
			    "more than %d cards in an army or face up", CK_MAX_TABLE);
		return -1;
	}
	ck_deploy_card(s, seat, r, c, want);
	return 0;
}

void ck_deploy_card(hg_state *s, int seat, int religion, int card, int place)
{
	ck_tableau *t = &s->p[seat].tab;
	if (place == CK_PLACE_ARMY)
		ck_table_push(t->army, &t->narmy, religion, card);
	else if (place == CK_PLACE_RESPONSE)
		ck_table_push(t->reserve, &t->nreserve, religion, card);
	else if (place == CK_PLACE_DISCARDED)
		ck_pile_discard(s, religion, card);
}

/* Which of the written arguments the round has used. */
typedef struct used {
	int on, at, takes, discards, castle;
} used;

/* The events of the script strike the player whose round it is (8.2):
 * 'on' must name it. */
static int check_on(const hg_state *s, const ck_card *k, const ck_reveal *rv, int against,
		    used *u, hg_diags *d)
{
	const ck_play *p = &rv->args;
	u->on = 1;
	if (p->on == against)
		return 0;
	if (p->on < 0) {
		hg_diag_add(d, HG_ERROR, rv->card.pos, "ck.event-args",
			    "'%s' needs 'on' and the player it strikes: %s, whose round it is (rules 8.2, 8.3)",
			    k->id, faction_id(s, against));
		return -1;
	}
	hg_diag_add(d, HG_ERROR, p->on_pos, "ck.script-target",
		    "'%s' strikes %s, whose round it is, not '%s' (rule 8.2)", k->id,
		    faction_id(s, against), faction_id(s, p->on));
	return -1;
}

static int script_event(hg_state *s, int seat, int against, int r, int c, const ck_reveal *rv,
			int stolen, used *u, hg_diags *d);

/* 8.4, Seducción: the card taken is deployed as if it were the side's
 * own; an event is played if it acts in the side's favour. */
static int take_and_deploy(hg_state *s, int seat, int against, const ck_card *k,
			   const ck_effect *fx, const ck_reveal *rv, used *u, hg_diags *d)
{
	const ck_play *p = &rv->args;
	ck_cardref taken[CK_MAX_LIST];
	int before = s->p[against].hand.size;
	u->takes = 1;
	if (ck_random_cards(s, against, fx->n, -2, &p->takes, p->on_pos, N_("rule 8.4"), taken, d) != 0)
		return -1;
	int k_taken = fx->n < before ? fx->n : before;
	for (int i = 0; i < k_taken; i++) {
		if (taken[i].card == CK_UNKNOWN) {
			hg_diag_add(d, HG_ERROR, p->takes.given ? p->takes.pos : p->on_pos, "ck.script-take",
				    "the card '%s' takes is deployed face up: the record names it (rule 8.4)",
				    k->id);
			return -1;
		}
		int tr = taken[i].religion, tc = taken[i].card;
		if (deploy(s, seat, tr, tc, rv, 1, d) != 0)
			return -1;
		if (hg_ck_script_placement(s, seat, tr, tc, 1) == CK_PLACE_NONE) {
			if (script_event(s, seat, against, tr, tc, rv, 1, u, d) != 0)
				return -1;
			ck_pile_discard(s, tr, tc);
		}
	}
	if (k_taken == 0 && rv->place != CK_PLACE_NONE) {
		hg_diag_add(d, HG_ERROR, rv->place_pos, "ck.script-place",
			    "%s has no card for '%s' to take: nothing goes anywhere (rule 8.4)",
			    faction_id(s, against), k->id);
		return -1;
	}
	return 0;
}

/* 8.4, Murallas: the castle turns in the area the script picks. */
static int script_flip(hg_state *s, int seat, int against, const ck_card *k, const ck_effect *fx,
		       const ck_reveal *rv, used *u, hg_diags *d)
{
	const ck_play *p = &rv->args;
	int area = ck_script_flip_area(s, seat, against, fx);
	u->at = 1;
	if (area == p->at) {
		if (area >= 0)
			s->plus1[area] = fx->n > 0;
		return 0;
	}
	hg_diag *dg;
	hg_pos pos = p->at >= 0 ? p->at_pos : rv->card.pos;
	if (area < 0)
		dg = hg_diag_add(d, HG_ERROR, pos, "ck.script-area",
				 "'%s' turns no castle here: none can turn (rule 8.4)", k->id);
	else
		dg = hg_diag_add(d, HG_ERROR, pos, "ck.script-area",
				 p->at >= 0 ? "'%s' turns the castle of %s, the area with the lowest number possible (number %d), not that of the area written (rule 8.4)"
					    : N_("'%s' turns the castle of %s, the area with the lowest number possible (number %d), and the record names none (rule 8.4)"),
				 k->id, area_id(s, area), s->map->areas[area].number);
	if (area >= 0)
		hg_diag_note(dg, "write 'at %s'", area_id(s, area));
	return -1;
}

/* 8.3 "Events apply at once", step by step, in the side's favour. */
static int script_event(hg_state *s, int seat, int against, int r, int c, const ck_reveal *rv,
			int stolen, used *u, hg_diags *d)
{
	const ck_card *k = ck_card_at(s, r, c);
	const ck_play *p = &rv->args;
	const char *rule = stolen ? N_("rule 8.4") : N_("rule 8.3");
	for (int i = 0; i < k->nfx; i++) {
		const ck_effect *fx = &k->fx[i];
		int rc = 0;
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
			if (check_on(s, k, rv, against, u, d) != 0)
				return -1;
			u->discards = 1;
			rc = ck_random_cards(s, against, fx->n, -1, &p->discards, p->on_pos, rule, NULL, d);
			break;
		case CK_FX_STEAL:
			if (stolen) {
				/* hg_ck_script_placement never plays a taken event that takes */
				break;
			}
			if (check_on(s, k, rv, against, u, d) != 0)
				return -1;
			rc = take_and_deploy(s, seat, against, k, fx, rv, u, d);
			break;
		case CK_FX_BONUS:
			if (fx->target == CK_T_SELF) {
				u->castle = 1;
				rc = hg_ck_bonus_gain(s, seat, fx->n, p,
						   p->castle >= 0 ? p->castle_pos : rv->card.pos, d);
				if (rc == 0 && p->castle >= 0 && p->castle != ck_script_castle(s, seat)) {
					/* not reached with bonus-from-conquest false (8.2) */
					hg_diag_add(d, HG_ERROR, p->castle_pos, "ck.script-area",
						    "the script turns its regular castle with the lowest number (rule 6; ruling 34)");
					rc = -1;
				}
			} else {
				if (check_on(s, k, rv, against, u, d) != 0)
					return -1;
				hg_ck_bonus_lose(s, against, -fx->n);
			}
			break;
		case CK_FX_FLIP:
			rc = script_flip(s, seat, against, k, fx, rv, u, d);
			break;
		default:
			/* the loader lets through only what ck_event_scriptable
			 * accepts, and a taken event that is not is discarded */
			break;
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* Arguments written that the round had no use for. */
static int check_unused(const hg_state *s, int r, int c, const ck_reveal *rv, const used *u,
			hg_diags *d)
{
	const ck_play *p = &rv->args;
	const char *word = NULL;
	hg_pos pos = rv->card.pos;
	if (p->on >= 0 && !u->on) {
		word = "on";
		pos = p->on_pos;
	} else if (p->at >= 0 && !u->at) {
		word = "at";
		pos = p->at_pos;
	} else if (p->takes.given && !u->takes) {
		word = "takes";
		pos = p->takes.pos;
	} else if (p->discards.given && !u->discards) {
		word = "discards";
		pos = p->discards.pos;
	} else if (p->castle >= 0 && !u->castle) {
		word = "castle";
		pos = p->castle_pos;
	}
	if (!word)
		return 0;
	hg_diag_add(d, HG_ERROR, pos, "ck.event-args", "'%s' has no use for '%s' here (rule 8.3)",
		    ck_card_at(s, r, c)->id, word);
	return -1;
}

/* 8.3: the army's die and, below its troop points, its attack. */
static int script_roll(hg_state *s, int seat, int against, const ck_reveal *rv, hg_pos pos,
		       int attack_too, hg_diags *d)
{
	/* ck_script_rolls, with the army's strength counted once */
	int strength = hg_ck_army_strength(s, seat);
	if (strength == 0 || !ck_crusaders_hold_area(s)) {
		if (rv->die == CK_DIE_NONE)
			return 0;
		hg_diag_add(d, HG_ERROR, rv->die_pos, "ck.script-roll",
			    strength == 0 ?
			    "%s has no army on the table: it rolls no die (rule 8.3)" :
			    "the crusaders hold no area: %s does not roll for its army (rule 8.3)",
			    faction_id(s, seat));
		return -1;
	}
	int die = rv->die;
	if (die == 0 || die > 6) {
		hg_diag_add(d, HG_ERROR, rv->die_pos, "ck.die-range",
			    "a die shows 1 to 6, not %d (rule 8.3)", die);
		return -1;
	}
	if (s->seeded) {
		int rolled = (int)hg_prng_wide_die(&s->dice, 6);
		if (die >= 0 && die != rolled) {
			hg_diag_add(d, HG_ERROR, rv->die_pos, "ck.dice-seed",
				    "the Seed rolls %d for the army, not %d (herald-crusader-kingdoms(7), CHANCE)",
				    rolled, die);
			return -1;
		}
		die = rolled;
	} else if (die == CK_DIE_NONE) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "ck.script-roll",
					  "%s has an army of %d troop points on the table: after its card it rolls a die (rule 8.3)",
					  faction_id(s, seat), strength);
		hg_diag_note(dg, "write '/ DIE' after the card, and the attack when the die is below %d",
			     strength);
		return -1;
	}
	int target = hg_ck_script_target(s, seat, against);
	const ck_attack *at = &rv->attack;
	if (die == CK_DIE_HIDDEN) {
		/* Every face weighed (issue 25): of 7 troop points or more every
		 * face is below them, of 1 none is; between, the record's choice
		 * is what some faces give and others do not. */
		if (target >= 0 && strength > 6 && !rv->has_attack) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, rv->die_pos, "ck.script-attack",
						  "every die is below the army's %d troop points: it attacks %s, whatever the die shows (rule 8.3; ruling 30)",
						  strength, area_id(s, target));
			hg_diag_note(dg, "write '/ ? attack %s ...' with the combat", area_id(s, target));
			return -1;
		}
		if (target >= 0 && strength == 1 && rv->has_attack) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, at->target_pos, "ck.script-no-attack",
						  "no die is below the army's 1 troop point: it does not attack, whatever the die shows (rule 8.3)");
			hg_diag_note(dg, "the army attacks only on a die below the sum of its troop points");
			return -1;
		}
		if (target >= 0 && strength > 1 && strength <= 6)
			hg_diag_add(d, HG_UNVERIFIED, rv->die_pos, "ck.hidden-dice",
				    "the army's die is not in the record and there is no Seed: a %s is taken as rolled (rule 8.3)",
				    rv->has_attack ? "die below its troop points" : "die not below its troop points");
	} else if (rv->has_attack && (die >= strength || target < 0)) {
		hg_diag *dg;
		if (die >= strength)
			dg = hg_diag_add(d, HG_ERROR, at->target_pos, "ck.script-no-attack",
					 "a %d is not below the army's %d troop points: it does not attack (rule 8.3)",
					 die, strength);
		else
			dg = hg_diag_add(d, HG_ERROR, at->target_pos, "ck.script-no-attack",
					 "no area of %s, whose round it is, borders an area of %s: the army does not attack (rules 8.2, 8.3)",
					 faction_id(s, against), faction_id(s, seat));
		hg_diag_note(dg, "the army attacks only on a die below the sum of its troop points");
		return -1;
	} else if (!rv->has_attack && die < strength && target >= 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, rv->die_pos, "ck.script-attack",
					  "a %d is below the army's %d troop points: it attacks %s (rule 8.3)",
					  die, strength, area_id(s, target));
		hg_diag_note(dg, "write '/ %d attack %s ...' with the combat", die, area_id(s, target));
		return -1;
	}
	if (!rv->has_attack)
		return 0;
	if (at->target != target) {
		hg_diag *dg;
		if (target < 0)
			dg = hg_diag_add(d, HG_ERROR, at->target_pos, "ck.script-no-attack",
					 "no area of %s, whose round it is, borders an area of %s: the army does not attack (rules 8.2, 8.3)",
					 faction_id(s, against), faction_id(s, seat));
		else
			dg = hg_diag_add(d, HG_ERROR, at->target_pos, "ck.script-target",
					 "the army attacks %s (number %d), the lowest-numbered area of %s bordering an area of %s, not '%s' (rules 8.2, 8.3)",
					 area_id(s, target), s->map->areas[target].number,
					 faction_id(s, against), faction_id(s, seat), area_id(s, at->target));
		int owner = s->owner[at->target];
		if (owner >= 0 && owner != against && owner != seat)
			hg_diag_note(dg, "'%s' is %s's, and the round is %s's", area_id(s, at->target),
				     faction_id(s, owner), faction_id(s, against));
		return -1;
	}
	return attack_too ? ck_army_attack(s, seat, at, d) : 0;
}

/* An event that takes a card: the place written is the taken card's. */
static int takes_a_card(const ck_card *k)
{
	for (int i = 0; i < k->nfx; i++)
		if (k->fx[i].verb == CK_FX_STEAL)
			return 1;
	return 0;
}

/* The round; with attack_too 0, up to the army's attack (pending.c rolls
 * it where it begins). */
static int reveal_round(hg_state *s, const hg_action *a, int attack_too, hg_diags *d)
{
	const ck_reveal *rv = &a->rev;
	int seat = a->seat, against = ck_against(s), r, c;
	used u = { 0, 0, 0, 0, 0 };
	if (reveal_card(s, seat, &rv->card, &r, &c, d) != 0)
		return -1;
	const ck_card *k = ck_card_at(s, r, c);
	if (k->type == CK_EVENT) {
		if ((!takes_a_card(k) && deploy(s, seat, r, c, rv, 0, d) != 0) ||
		    script_event(s, seat, against, r, c, rv, 0, &u, d) != 0)
			return -1;
		ck_pile_discard(s, r, c);	/* no P event is scripted */
	} else if (deploy(s, seat, r, c, rv, 0, d) != 0) {
		return -1;
	}
	if (check_unused(s, r, c, rv, &u, d) != 0 ||
	    script_roll(s, seat, against, rv, a->pos, attack_too, d) != 0)
		return -1;
	if (attack_too && s->phase != CK_PHASE_OVER)
		ck_next_round(s, 0);
	return 0;
}

int ck_apply_reveal(hg_state *s, const hg_action *a, hg_diags *d)
{
	return reveal_round(s, a, 1, d);
}

int ck_reveal_before_attack(hg_state *s, const hg_action *a, hg_diags *d)
{
	return reveal_round(s, a, 0, d);
}
