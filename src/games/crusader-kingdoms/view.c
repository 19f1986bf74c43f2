/* view.c - what one player's faction of Crusader Kingdoms may see
 * (herald-crusader-kingdoms(7), SEAT VIEWS).  Hidden from the others: the
 * cards a faction draws (3, step 1; an event's draws), its face-down
 * discards (4.5), the troop it discards for an incursion (4.3); a card
 * discarded at random (4.3, 4.4) is seen by its owner only, a card taken
 * at random by its owner and the taker.  A side no player controls draws
 * face down (8.3): its draw is hidden from everyone until it reveals.
 * Events played, attacks (their cards are revealed, 4.1 step 5), rolls and
 * the scripted side's reveals are public. */
#include "config.h"

#include <string.h>

#include "ck.h"

/* The faction of the seat-th player's faction (factions in the scenario's
 * order, skipping the sides no player controls), or -1. */
static int faction_of_seat(const hg_state *s, unsigned seat)
{
	unsigned k = 0;
	for (int f = 0; f < s->sc->nfactions; f++)
		if (s->sc->factions[f].player && k++ == seat)
			return f;
	return -1;
}

int ck_seat_find(const hg_state *s, const char *name)
{
	int f = hg_names_find(s->sc->seats, name);
	if (f < 0 || !s->sc->factions[f].player)
		return -1;
	int seat = 0;
	for (int g = 0; g < f; g++)
		seat += s->sc->factions[g].player != 0;
	return seat;
}

const char *ck_view_seat_name(const hg_state *s, unsigned seat)
{
	int f = faction_of_seat(s, seat);
	return f < 0 ? NULL : s->sc->factions[f].id;
}

/* The hidden items a view writes in place of a list's cards (a list holds
 * at most CK_MAX_LIST of them: ck.too-many). */
typedef struct hidden_lists {
	ck_item v[CK_MAX_LIST];
} hidden_lists;

static void hide_items(ck_items *l, const hidden_lists *h)
{
	l->v = (ck_item *)h->v;	/* read only, by ck_format */
}

static void hide_item(ck_item *it)
{
	it->card[0] = it->card[1] = -1;
}

/* A draw the seat does not see: only how many cards ("draw 8 ?"). */
static void hide_draw(ck_items *l, const hidden_lists *h)
{
	if (l->count < 0 && l->n == 1 && l->v[0].card[0] < 0 && l->v[0].card[1] < 0)
		return;		/* "draw ?": the record hides even how many */
	int count = l->count >= 0 ? l->count : l->n;
	if (count == 0)
		return;		/* "draw 0" hides nothing */
	l->count = count;
	l->n = 1;
	hide_items(l, h);
}

void ck_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
		    unsigned seat, hg_buf *seat_out, hg_buf *body)
{
	(void)after;
	hidden_lists hidden;	/* every item '?' */
	for (int i = 0; i < CK_MAX_LIST; i++)
		hide_item(&hidden.v[i]);
	int viewer = faction_of_seat(before, seat);
	int own = a->seat == viewer;
	hg_action seen = *a;
	seen.home = NULL;
	switch (a->kind) {
	case CK_ACT_DRAW:
		if (!own)
			hide_draw(&seen.draw, &hidden);
		break;
	case CK_ACT_DISCARD:
		if (!own)
			hide_item(&seen.discard);
		break;
	case CK_ACT_INCURSION:
		if (!own)
			hide_item(&seen.inc.card);
		if (seen.inc.target != viewer)
			hide_items(&seen.inc.discards, &hidden);
		break;
	case CK_ACT_PLAY: {
		ck_play *p = &seen.play;
		int victim = p->on >= 0 ? p->on : a->seat;
		if (!own)
			hide_items(&p->draws, &hidden);
		if (!own && victim != viewer)
			hide_items(&p->takes, &hidden);
		if (victim != viewer)
			hide_items(&p->discards, &hidden);
		break;
	}
	case CK_ACT_REVEAL:
		/* The card a scripted side takes is played or placed in the
		 * open (8.4, Seducción); a random discard is its owner's. */
		if (seen.rev.args.on != viewer)
			hide_items(&seen.rev.args.discards, &hidden);
		break;
	case CK_ACT_PASS:
	case CK_ACT_ATTACK:
		break;
	}
	ck_format(before, &seen, seat_out, body);
}

static int items_named(const ck_items *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->v[i].card[0] >= 0 || l->v[i].card[1] >= 0)
			return 1;
	return 0;
}

static int rolls_given(const ck_attack *at)
{
	return at->roll[0].given || at->roll[1].given;
}

/* Also 1 for an attack holding another seat's decisions where that seat
 * answers it itself (pending.c): not the attacker's choice either. */
int ck_names_chance(const hg_state *s, const hg_action *a)
{
	if (ck_attack_decides_for_others(s, a))
		return 1;
	switch (a->kind) {
	case CK_ACT_DRAW:
		return items_named(&a->draw);
	case CK_ACT_INCURSION:
		return a->inc.die > 0 || items_named(&a->inc.discards);
	case CK_ACT_PLAY:
		return items_named(&a->play.draws) || items_named(&a->play.takes) ||
		       items_named(&a->play.discards) ||
		       (a->play.has_attack && rolls_given(&a->play.attack));
	case CK_ACT_ATTACK:
		return rolls_given(&a->attack);
	default:
		return 0;
	}
}
