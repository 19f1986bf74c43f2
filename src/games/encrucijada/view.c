/* view.c - what one seat of Encrucijada may see (herald-encrucijada(7),
 * SEAT VIEWS).  Hidden from the others: the cards a seat sets up and draws
 * (rule 5, 6.A, and an effect's draws), the cards it puts down hidden (6.B) and takes back to its
 * hand (rule 3).  Public: cards put down visible, cards turned up (show,
 * the cards revealed in battle, a card forced to defend), effects with
 * their choices, the war.  A seat's own cards are named in its view even
 * where the master record leaves them to its Seed, so that the view,
 * which has no Seed, still knows them. */
#include "config.h"

#include <string.h>

#include "enc.h"

int enc_seat_find(const hg_state *s, const char *name)
{
	int seat = enc_find_seat(s, name);
	return seat >= 0 && seat < s->nseats ? seat : -1;
}

const char *enc_view_seat_name(const hg_state *s, unsigned seat)
{
	return seat < (unsigned)s->nseats ? enc_seat_name((int)seat) : NULL;
}

/* The card an instance of the seat holds as the position knows it (-1:
 * unseen, or no instance). */
static int inst_card(const hg_state *s, int seat, int inst)
{
	return inst >= 0 ? s->p[seat].inst[inst].card : -1;
}

/* A card to name: the one written, else the one the position knows. */
static int named(int written, int known)
{
	return written >= 0 ? written : known >= 0 ? known : written;
}

void enc_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
		     unsigned seat, hg_buf *seat_out, hg_buf *body)
{
	(void)after;
	int own = a->seat == (int)seat;
	hg_action seen = *a;
	seen.home = NULL;
	enc_item setup[ENC_SETUP_CARDS];
	enc_item chosen[ENC_MAX_ITEMS];
	switch (a->kind) {
	case ENC_A_SETUP:
		if (!own) {
			seen.nitems = 0;	/* "setup 2": six cards unseen */
		} else {
			int v[ENC_MAX_DECK];
			int n = enc_pile_list(before, a->seat, a->pile, v);
			int take = n < ENC_SETUP_CARDS ? n : ENC_SETUP_CARDS;
			memset(setup, 0, sizeof setup);
			for (int i = 0; i < take; i++) {
				int card = i < a->nitems && a->items[i].kind == ENC_ITEM_CARD ?
					   a->items[i].card : inst_card(before, a->seat, v[i]);
				setup[i].kind = card >= 0 ? ENC_ITEM_CARD : ENC_ITEM_UNKNOWN;
				setup[i].card = (short)card;
			}
			seen.items = setup;
			seen.nitems = take;
		}
		break;
	case ENC_A_DRAW:
		seen.card = !own ? -2 :
			    named(a->card, inst_card(before, a->seat,
						     enc_pile_top(before, a->seat, a->pile)));
		break;
	case ENC_A_PUT:
		/* Once the record reveals its seed, the view (which keeps
		 * SeedReveal) deals every card: its hand of the other seats is
		 * known, and '?' would not say which card went down. */
		if (!a->visible && !own && !before->sh->seed_public)
			seen.card = -2;
		break;
	case ENC_A_TAKE:
		seen.card = !own ? -1 :
			    named(a->card, inst_card(before, a->seat,
						     enc_ref_inst(before, a->seat, &a->ref)));
		break;
	case ENC_A_SHOW:
		seen.card = named(a->card, inst_card(before, a->seat,
						     enc_ref_inst(before, a->seat, &a->ref)));
		break;
	case ENC_A_FORCE:
		if (a->has_ref)
			seen.card = named(a->card, inst_card(before, a->seat,
							     enc_ref_inst(before, a->seat, &a->ref)));
		break;
	case ENC_A_REVEAL: {
		const enc_war *w = &before->war;
		int army = a->seat == w->att ? w->att_army : w->def_army;
		seen.card = named(a->card, army < 0 ? -1 :
				  inst_card(before, a->seat, enc_stack_at(before, a->seat, army, 1)));
		break;
	}
	case ENC_A_USE:
		/* the choices are public; the cards an effect draws are the
		 * drawer's, as a draw's are */
		if (!own && a->nitems <= ENC_MAX_ITEMS) {
			memcpy(chosen, a->items, sizeof chosen[0] * (size_t)a->nitems);
			for (int i = 0; i < a->nitems; i++)
				if (enc_item_drawn(a->items, i))
					chosen[i].kind = ENC_ITEM_UNKNOWN;
			seen.items = chosen;
		}
		break;
	default:
		break;	/* public */
	}
	enc_format(before, &seen, seat_out, body);
}

int enc_names_chance(const hg_state *s, const hg_action *a)
{
	(void)s;
	if (a->kind == ENC_A_DRAW)
		return a->card >= 0;
	if (a->kind == ENC_A_SETUP)
		for (int i = 0; i < a->nitems; i++)
			if (a->items[i].kind == ENC_ITEM_CARD)
				return 1;
	if (a->kind == ENC_A_USE)
		for (int i = 0; i < a->nitems; i++)
			if (enc_item_drawn(a->items, i) && a->items[i].kind == ENC_ITEM_CARD)
				return 1;
	return 0;
}
