/* events.c - Crusader Kingdoms: playing an event (4.4).
 *
 * The player shows an event card and does what it says: its effects are
 * data, interpreted step by step by effects.c; an event that starts an
 * attack proceeds as 4.1 (combat.c).  An event marked P stays face up and
 * in force until the end of the turn; any other is discarded.
 */
#include "config.h"

#include "ck.h"

/* Which of the written arguments the card's effects use. */
typedef struct uses {
	int on, at, draws, takes, discards, attack;
} uses;

static void card_uses(const ck_card *c, uses *u)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
		case CK_FX_CHOSEN_DISCARD:
			u->on = 1;
			u->discards = 1;
			break;
		case CK_FX_STEAL:
			u->on = 1;
			u->takes = 1;
			break;
		case CK_FX_BONUS:
			u->on |= fx->target != CK_T_SELF;
			break;
		case CK_FX_FLIP:
			u->at = 1;
			break;
		case CK_FX_DRAW:
			u->draws = 1;
			break;
		case CK_FX_ATTACK:
			u->attack = 1;
			break;
		case CK_FX_TRUCE:
			u->on = 1;
			break;
		default:
			break;
		}
	}
}

static int unused_arg(const ck_card *c, const char *word, hg_pos pos, hg_diags *d)
{
	hg_diag_add(d, HG_ERROR, pos, "ck.event-args",
		    "'%s' has no use for '%s' (rule 4.4)", c->id, word);
	return -1;
}

/* The written arguments against the card's needs. */
static int check_args(const ck_card *c, const ck_play *p, hg_diags *d)
{
	uses u = { 0, 0, 0, 0, 0, 0 };
	card_uses(c, &u);
	if (p->on >= 0 && !u.on)
		return unused_arg(c, "on", p->on_pos, d);
	if (p->at >= 0 && !u.at)
		return unused_arg(c, "at", p->at_pos, d);
	if (p->draws.given && !u.draws)
		return unused_arg(c, "draws", p->draws.pos, d);
	if (p->takes.given && !u.takes)
		return unused_arg(c, "takes", p->takes.pos, d);
	if (p->discards.given && !u.discards)
		return unused_arg(c, "discards", p->discards.pos, d);
	if (p->has_attack && !u.attack)
		return unused_arg(c, "attack", p->attack.target_pos, d);
	const char *missing = NULL;
	if (u.on && p->on < 0)
		missing = "'on' and the player it targets";
	else if (u.at && p->at < 0)
		missing = "'at' and the area whose castle turns";
	else if (u.attack && !p->has_attack)
		missing = "the attack it starts ('attack AREA ...', as in rule 4.1)";
	if (missing) {
		hg_diag_add(d, HG_ERROR, p->card.pos, "ck.event-args",
			    "'%s' needs %s (rule 4.4)", c->id, missing);
		return -1;
	}
	return 0;
}

const ck_effect *ck_play_attack_effect(const hg_state *s, const hg_action *a)
{
	int r = ck_item_religion(&a->play.card, s->sc->factions[a->seat].religion);
	return r < 0 ? NULL : ck_event_attack(ck_card_at(s, r, a->play.card.card[r]));
}

int ck_play_before_attack(hg_state *s, const hg_action *a, hg_diags *d)
{
	const ck_play *p = &a->play;
	int r, card;
	/* Look at the card before taking it, to say what is wrong with it. */
	int own = s->sc->factions[a->seat].religion;
	int rr = ck_item_religion(&p->card, own);
	if (rr >= 0 && ck_card_at(s, rr, p->card.card[rr])->type != CK_EVENT) {
		const ck_card *k = ck_card_at(s, rr, p->card.card[rr]);
		hg_diag_add(d, HG_ERROR, p->card.pos, "ck.card-kind",
			    "'%s' is %s, not an event: only events are played (rule 4.4)", k->id,
			    k->type == CK_TROOP ? "a troop" : "a response");
		return -1;
	}
	if (ck_take_card(s, a->seat, &p->card, N_("rule 4.4"), &r, &card, d) != 0)
		return -1;
	const ck_card *c = ck_card_at(s, r, card);
	if (check_args(c, p, d) != 0)
		return -1;
	/* Rule 4.4: a P event stays face up for the whole turn. */
	if (c->persistent) {
		if (s->nfaceup >= CK_MAX_FACEUP) {
			hg_diag_add(d, HG_ERROR, p->card.pos, "ck.too-many",
				    "more than %d events face up at once", CK_MAX_FACEUP);
			return -1;
		}
		ck_faceup *f = &s->faceup[s->nfaceup++];
		f->religion = (unsigned char)r;
		f->card = (unsigned char)card;
		f->owner = (unsigned char)a->seat;
		f->target = (signed char)p->on;
	} else {
		ck_pile_discard(s, r, card);
	}
	return ck_effects_apply(s, a->seat, c, p, d);
}

int ck_apply_play(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (ck_play_before_attack(s, a, d) != 0)
		return -1;
	const ck_effect *fx = ck_play_attack_effect(s, a);
	if (fx && ck_attack_resolve(s, a->seat, &a->play.attack, fx, d) != 0)
		return -1;
	if (s->phase != CK_PHASE_OVER)
		ck_next_round(s, 0);
	return 0;
}
