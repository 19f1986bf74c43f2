/* effects.c - Crusader Kingdoms: the card-effect vocabulary.
 *
 * A card's effects are data (deck-*.yaml): a list of steps, each one verb
 * with its number and a few modifiers.  This file reads the vocabulary and
 * interprets it: the responses' contributions to a combat (4.1, 4.2) and
 * the steps of an event (4.4).  herald-crusader-kingdoms(7), EFFECTS,
 * documents every verb; a card the vocabulary cannot express calls for a
 * new verb here, never for a card named in C.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

typedef struct verb_spec {
	const char *name;
	int response;		/* a response's verb (else an event's) */
	long min, max;		/* its number */
	int targeted;		/* takes `target` */
	ck_target dflt;		/* the target when none is given */
	int lasting;		/* only on a persistent (P) event */
} verb_spec;

static const verb_spec verbs[CK_NVERBS] = {
	[CK_FX_DICE] = { "dice", 1, 1, 9, 0, CK_T_SELF, 0 },
	[CK_FX_MODIFY] = { "modify", 1, 1, 18, 0, CK_T_SELF, 0 },
	[CK_FX_REGROUP] = { "regroup", 1, 1, 9, 0, CK_T_SELF, 0 },
	[CK_FX_RANDOM_DISCARD] = { "random-discard", 0, 1, 9, 1, CK_T_PLAYER, 0 },
	[CK_FX_CHOSEN_DISCARD] = { "chosen-discard", 0, 1, 9, 1, CK_T_PLAYER, 0 },
	[CK_FX_STEAL] = { "steal", 0, 1, 9, 1, CK_T_OPPONENT, 0 },
	[CK_FX_BONUS] = { "bonus", 0, -4, 4, 1, CK_T_SELF, 0 },
	[CK_FX_FLIP] = { "flip-castle", 0, 0, 0, 1, CK_T_SELF, 0 },
	[CK_FX_DRAW] = { "draw", 0, 1, 9, 0, CK_T_SELF, 0 },
	[CK_FX_ATTACK] = { "attack", 0, 0, 9, 0, CK_T_SELF, 0 },
	[CK_FX_DEFENCE_DICE] = { "defence-dice", 0, 1, 9, 0, CK_T_SELF, 1 },
	[CK_FX_TRUCE] = { "truce", 0, 0, 0, 1, CK_T_PLAYER, 1 },
};

static const char *const target_words[] = { "self", "player", "opponent", "neighbour", NULL };

const char *ck_target_phrase(ck_target t)
{
	switch (t) {
	case CK_T_SELF: return _("the player");
	case CK_T_PLAYER: return _("another player");
	case CK_T_OPPONENT: return _("a player of the other religion");
	case CK_T_NEIGHBOUR: return _("another player sharing a border");
	}
	return "?";
}

static int effect_error(const hg_ynode *n, const ck_card *c, hg_diags *d, const char *what)
{
	hg_diag_add(d, HG_ERROR, n->pos, "data.range", "card '%s': %s", c->id, what);
	return -1;
}

/* One step: a mapping with one verb and its modifiers. */
static int load_effect(ck_card *c, const hg_ynode *n, hg_diags *d)
{
	static const char *const keys[] = {
		"dice", "modify", "regroup", "random-discard", "chosen-discard", "steal",
		"bonus", "flip-castle", "draw", "attack", "defence-dice", "truce",
		"target", "requires", "against", "from", NULL
	};
	if (hg_ycheck_keys(n, keys, "an effect", d) != 0)
		return -1;
	int verb = -1;
	const hg_ynode *value = NULL;
	for (int v = 0; v < CK_NVERBS; v++) {
		const hg_ynode *x = hg_ymap_get(n, verbs[v].name);
		if (!x)
			continue;
		if (verb >= 0)
			return effect_error(n, c, d, "an effect step has one verb; split it into two steps");
		verb = v;
		value = x;
	}
	if (verb < 0)
		return effect_error(n, c, d, "an effect step needs a verb (dice, modify, regroup, random-discard, chosen-discard, steal, bonus, flip-castle, draw, attack, defence-dice, truce)");
	const verb_spec *vs = &verbs[verb];
	if (c->nfx >= CK_MAX_FX)
		return effect_error(n, c, d, "too many effect steps");
	ck_effect *fx = &c->fx[c->nfx];
	memset(fx, 0, sizeof *fx);
	fx->verb = (ck_verb)verb;
	fx->target = vs->dflt;
	if (vs->response != (c->type == CK_RESPONSE)) {
		hg_diag_add(d, HG_ERROR, value->pos, "data.range",
			    "card '%s': '%s' is a verb for %s, and this card is %s",
			    c->id, vs->name, vs->response ? "responses" : "events",
			    c->type == CK_RESPONSE ? "a response" : "an event");
		return -1;
	}
	if (vs->lasting && !c->persistent) {
		hg_diag_add(d, HG_ERROR, value->pos, "data.range",
			    "card '%s': '%s' lasts the whole turn, so the card must be persistent (P)",
			    c->id, vs->name);
		return -1;
	}
	if (verb == CK_FX_FLIP) {
		static const char *const dirs[] = { "up", "down", NULL };
		int w;
		if (hg_yword(value, dirs, &w, d) != 0)
			return -1;
		fx->n = w == 0 ? 1 : -1;
	} else if (verb == CK_FX_TRUCE) {
		int b;
		if (hg_ybool(value, &b, d) != 0)
			return -1;
		if (!b)
			return effect_error(value, c, d, "'truce: false' does nothing; remove the step");
		fx->n = 1;
	} else {
		long v;
		if (hg_yint(value, vs->min, vs->max, &v, d) != 0)
			return -1;
		if (verb == CK_FX_BONUS && v == 0)
			return effect_error(value, c, d, "a bonus step of 0 does nothing");
		fx->n = (int)v;
	}
	const hg_ynode *m = hg_ymap_get(n, "target");
	if (m) {
		int t;
		if (!vs->targeted)
			return effect_error(m, c, d, "this verb takes no target");
		if (hg_yword(m, target_words, &t, d) != 0)
			return -1;
		fx->target = (ck_target)t;
		if (t == CK_T_SELF && verb != CK_FX_BONUS && verb != CK_FX_FLIP)
			return effect_error(m, c, d, "this verb needs a target other than the player");
	}
	m = hg_ymap_get(n, "requires");
	if (m) {
		int w;
		if (verb != CK_FX_DICE)
			return effect_error(m, c, d, "'requires' goes with 'dice' only");
		if (hg_yword(m, (const char *const[]){ "castle", NULL }, &w, d) != 0)
			return -1;
		fx->needs_castle = 1;
	}
	m = hg_ymap_get(n, "against");
	if (m) {
		int w;
		if (verb != CK_FX_ATTACK)
			return effect_error(m, c, d, "'against' goes with 'attack' only");
		if (hg_yword(m, (const char *const[]){ "any", "independent", NULL }, &w, d) != 0)
			return -1;
		fx->independent_only = w == 1;
	}
	m = hg_ymap_get(n, "from");
	if (m) {
		int w;
		if (verb != CK_FX_ATTACK)
			return effect_error(m, c, d, "'from' goes with 'attack' only");
		if (hg_yword(m, (const char *const[]){ "own", "ally", NULL }, &w, d) != 0)
			return -1;
		fx->from_ally = w == 1;
	}
	if (verb == CK_FX_ATTACK)
		for (int i = 0; i < c->nfx; i++)
			if (c->fx[i].verb == CK_FX_ATTACK)
				return effect_error(n, c, d, "one attack per card");
	c->nfx++;
	return 0;
}

int ck_effects_load(ck_card *card, const hg_ynode *list, hg_diags *d)
{
	if (hg_ycheck_kind(list, HG_Y_SEQ, "effects", d) != 0)
		return -1;
	if (list->n == 0) {
		hg_diag_add(d, HG_ERROR, list->pos, "data.range",
			    "card '%s' has an empty effects list", card->id);
		return -1;
	}
	for (size_t i = 0; i < list->n; i++)
		if (load_effect(card, list->items[i], d) != 0)
			return -1;
	return 0;
}

/* -------------------------------------------------------------- combat */
void ck_response_support(const ck_card *c, ck_support *s)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		switch (fx->verb) {
		case CK_FX_DICE:
			s->dice += fx->n;
			s->needs_castle |= fx->needs_castle;
			break;
		case CK_FX_MODIFY:
			s->points += fx->n;
			break;
		case CK_FX_REGROUP:
			s->regroup += fx->n;
			break;
		default:
			break;
		}
	}
}

const ck_effect *ck_event_attack(const ck_card *c)
{
	for (int i = 0; c->type == CK_EVENT && i < c->nfx; i++)
		if (c->fx[i].verb == CK_FX_ATTACK)
			return &c->fx[i];
	return NULL;
}

int hg_ck_persistent_defence(const hg_state *s, int faction)
{
	int dice = 0;
	for (int i = 0; i < s->nfaceup; i++) {
		if (s->faceup[i].owner != faction)
			continue;
		const ck_card *c = ck_card_at(s, s->faceup[i].religion, s->faceup[i].card);
		for (int k = 0; k < c->nfx; k++)
			if (c->fx[k].verb == CK_FX_DEFENCE_DICE)
				dice += c->fx[k].n;
	}
	return dice;
}

int hg_ck_truce_between(const hg_state *s, int a, int b)
{
	for (int i = 0; i < s->nfaceup; i++) {
		const ck_faceup *f = &s->faceup[i];
		const ck_card *c = ck_card_at(s, f->religion, f->card);
		for (int k = 0; k < c->nfx; k++)
			if (c->fx[k].verb == CK_FX_TRUCE &&
			    ((f->owner == a && f->target == b) || (f->owner == b && f->target == a)))
				return 1;
	}
	return 0;
}

int ck_allied(const hg_state *s, int a, int b)
{
	const ck_faction *f = s->sc->factions;
	return a != b && f[a].religion == f[b].religion && s->sc->allies[f[a].religion];
}

/* A target is another side: a player, or a side no player controls, which
 * the players treat "as if it were a player" (8.3); never an ally (8). */
int ck_target_ok(const hg_state *s, int seat, ck_target t, int target)
{
	if (target < 0 || target >= s->nsides)
		return 0;
	const ck_faction *f = s->sc->factions;
	switch (t) {
	case CK_T_SELF:
		return target == seat;
	case CK_T_PLAYER:
		return target != seat && !ck_allied(s, seat, target);
	case CK_T_OPPONENT:
		return target != seat && f[target].religion != f[seat].religion;
	case CK_T_NEIGHBOUR:
		return target != seat && !ck_allied(s, seat, target) &&
		       ck_share_border(s, seat, target);
	}
	return 0;
}

/* The script of 8.3 applies an event "at once", always in the scripted
 * side's favour and against the player whose round it is (8.2): a step it
 * can play takes cards from that player, moves a bonus the right way, or
 * turns a castle the right way (herald-crusader-kingdoms(7), ruling 28). */
int ck_event_scriptable(const ck_card *c, const char **why)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		const char *no = NULL;
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
			break;
		case CK_FX_STEAL:
			if (fx->n != 1)
				no = "it deploys one card taken, not more";
			break;
		case CK_FX_BONUS:
			if ((fx->n > 0) != (fx->target == CK_T_SELF))
				no = "its bonus step would help the other side";
			break;
		case CK_FX_FLIP:
			if ((fx->n > 0) != (fx->target == CK_T_SELF))
				no = "its castle would turn against the scripted side";
			break;
		case CK_FX_CHOSEN_DISCARD:
			no = "the script does not choose a player's cards";
			break;
		case CK_FX_DRAW:
			no = "the script draws only at the start of a turn";
			break;
		case CK_FX_ATTACK:
			no = "the script attacks only with its army, on the die";
			break;
		case CK_FX_DEFENCE_DICE:
		case CK_FX_TRUCE:
			no = "the script has no rule for an effect lasting the turn";
			break;
		case CK_FX_DICE:
		case CK_FX_MODIFY:
		case CK_FX_REGROUP:
		case CK_NVERBS:
			no = "it is not an event's effect";
			break;
		}
		if (no) {
			if (why)
				*why = no;
			return 0;
		}
	}
	return 1;
}

/* -------------------------------------------------------------- events */

/* The faction an effect acts on: the player, or the one the record names. */
static int effect_target(const hg_state *s, int seat, const ck_card *c, const ck_effect *fx,
			 const ck_play *p, hg_diags *d)
{
	if (fx->target == CK_T_SELF)
		return seat;
	if (p->on < 0) {
		hg_diag_add(d, HG_ERROR, p->card.pos, "ck.event-args",
			    "'%s' needs a target: write 'on' and %s (rule 4.4)", c->id,
			    ck_target_phrase(fx->target));
		return -1;
	}
	if (ck_target_ok(s, seat, fx->target, p->on))
		return p->on;
	hg_diag *dg;
	if (ck_allied(s, seat, p->on))
		dg = hg_diag_add(d, HG_ERROR, p->on_pos, "ck.target",
				 "'%s' is an ally of %s, and this scenario's allies do not strike each other with '%s' (its 'allies'; ruling 37)",
				 s->sc->factions[p->on].id, s->sc->factions[seat].id, c->id);
	else
		dg = hg_diag_add(d, HG_ERROR, p->on_pos, "ck.target",
				 "'%s' cannot be the target of '%s': it must be %s (rule 4.4)",
				 s->sc->factions[p->on].id, c->id, ck_target_phrase(fx->target));
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < s->nsides; i++)
		if (ck_target_ok(s, seat, fx->target, i))
			hg_buf_printf(&b, "%s%s", b.len ? ", " : "", s->sc->factions[i].id);
	if (b.len)
		hg_diag_note(dg, "possible targets: %s", b.data);
	else
		hg_diag_note(dg, "possible targets: none");
	hg_buf_free(&b);
	return -1;
}

/* flip-castle: the area the record names holds a castle of the target on
 * the side the step turns from. */
static int fx_flip(hg_state *s, int seat, const ck_card *c, const ck_effect *fx,
		   const ck_play *p, hg_diags *d)
{
	int a = p->at, owner = s->owner[a];
	const char *want = fx->n > 0 ? "regular" : "+1";
	if (owner < 0 || !ck_target_ok(s, seat, fx->target, owner) ||
	    (int)s->plus1[a] != (fx->n < 0)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, p->at_pos, "ck.flip",
					  "'%s' turns a castle of %s shown on its %s side, and '%s' holds none (rule 4.4)",
					  c->id, ck_target_phrase(fx->target), want, s->map->areas[a].id);
		hg_buf b;
		hg_buf_init(&b);
		for (int i = 0; i < s->map->nareas; i++)
			if (s->owner[i] >= 0 && ck_target_ok(s, seat, fx->target, s->owner[i]) &&
			    (int)s->plus1[i] == (fx->n < 0))
				hg_buf_printf(&b, "%s%s", b.len ? ", " : "", s->map->areas[i].id);
		if (b.len)
			hg_diag_note(dg, "castles it could turn: %s", b.data);
		else
			hg_diag_note(dg, "castles it could turn: none");
		hg_buf_free(&b);
		return -1;
	}
	s->plus1[a] = fx->n > 0;
	return 0;
}

/* chosen-discard: the player looks at the target's hand and names the
 * cards (or writes '?' to keep them hidden). */
static int fx_chosen_discard(hg_state *s, int target, const ck_card *c, const ck_effect *fx,
			     const ck_play *p, hg_diags *d)
{
	int k = fx->n < s->p[target].hand.size ? fx->n : s->p[target].hand.size;
	if (k > 0 ? !p->discards.given || p->discards.n != k : p->discards.given) {
		hg_diag_add(d, HG_ERROR, p->discards.given ? p->discards.pos : p->on_pos,
			    "ck.event-args",
			    hg_ngettext("'%s' makes %s discard %d card of the player's choice: write 'discards' and the card (rule 4.4)",
					"'%s' makes %s discard %d cards of the player's choice: write 'discards' and the cards (rule 4.4)",
					(unsigned long)k),
			    c->id, s->sc->factions[target].id, k);
		return -1;
	}
	for (int i = 0; i < k; i++) {
		int r, card;
		if (ck_take_card(s, target, &p->discards.v[i], N_("rule 4.4"), &r, &card, d) != 0)
			return -1;
		if (card >= 0)
			ck_pile_discard(s, r, card);
		else
			ck_pile_discard_hidden(s, r);
	}
	return 0;
}

/* bonus: gains past +2 become castles turned to +1 (rule 6). */
static int fx_bonus(hg_state *s, int target, const ck_effect *fx, const ck_play *p,
		    hg_diags *d)
{
	if (fx->n < 0) {
		hg_ck_bonus_lose(s, target, -fx->n);
		return 0;
	}
	return hg_ck_bonus_gain(s, target, fx->n, p, p->castle >= 0 ? p->castle_pos : p->card.pos, d);
}

int ck_effects_apply(hg_state *s, int seat, const ck_card *c, const ck_play *p, hg_diags *d)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		int target = seat;
		/* flip-castle's target is the owner of the area it names */
		if (verbs[fx->verb].targeted && fx->verb != CK_FX_FLIP) {
			target = effect_target(s, seat, c, fx, p, d);
			if (target < 0)
				return -1;
		}
		int rc = 0;
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
			rc = ck_random_cards(s, target, fx->n, -1, &p->discards, p->on_pos,
					     N_("rule 4.4"), NULL, d);
			break;
		case CK_FX_CHOSEN_DISCARD:
			rc = fx_chosen_discard(s, target, c, fx, p, d);
			break;
		case CK_FX_STEAL:
			rc = ck_random_cards(s, target, fx->n, seat, &p->takes, p->on_pos,
					     N_("rule 4.4"), NULL, d);
			break;
		case CK_FX_BONUS:
			rc = fx_bonus(s, target, fx, p, d);
			break;
		case CK_FX_FLIP:
			rc = fx_flip(s, seat, c, fx, p, d);
			break;
		case CK_FX_DRAW:
			rc = ck_draw_cards(s, seat, fx->n, &p->draws, p->card.pos, N_("rule 4.4"), d);
			break;
		case CK_FX_TRUCE:		/* in force while face up (events.c) */
		case CK_FX_DEFENCE_DICE:	/* counted in each combat */
		case CK_FX_ATTACK:		/* resolved by events.c through combat.c */
		case CK_FX_DICE:
		case CK_FX_MODIFY:
		case CK_FX_REGROUP:
		case CK_NVERBS:
			break;
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}
