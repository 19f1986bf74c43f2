/* master.c - remote play of Encrucijada (herald-move(1)): the seats, and
 * the cards herald names.  A seat chooses the pile it sets up from or draws
 * from and writes only that (`setup 2`, `draw 3`, an effect's `use CARD /
 * 1 2`); herald names the cards the seed deals there, so that the master
 * record holds every card. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "enc.h"

static int card_of(const hg_state *s, int seat, int inst, hg_buf *out)
{
	int card = inst >= 0 ? s->p[seat].inst[inst].card : -1;
	if (card < 0)
		return -1;
	hg_buf_printf(out, " %s", enc_card_id(s, card));
	return 0;
}

/* An effect's draws named: in each group of a draw step, every pile
 * followed by the card it gives, the piles' tops taken in order (an
 * effect's steps put no card back on a pile).  Nothing when the effect
 * draws nothing, the seat named a drawn card already, or a pile runs
 * out (the engine then says why). */
static void fill_effect_draws(const hg_state *s, const char *seat, const char *body,
			      hg_buf *out)
{
	hg_action_text t;
	memset(&t, 0, sizeof t);
	hg_pos nowhere = { NULL, 0, 0 };
	hg_diags quiet;
	hg_diags_init(&quiet);
	hg_action *a = NULL;
	if (hg_action_text_set(&t, seat, body, nowhere, &quiet) == 0)
		a = enc_parse(s, &t, &quiet);
	if (a && hg_alloc_lost()) {	/* (the call reports it: nothing is filled) */
		enc_free_action(a);
		a = NULL;
	}
	unsigned draws = a ? enc_use_draw_groups(s, a) : 0;
	enc_item items[ENC_MAX_ITEMS];
	int n = 0, ok = draws != 0, taken[ENC_PILES] = { 0 };
	for (int i = 0; ok && i < a->nitems; i++) {
		const enc_item *it = &a->items[i];
		if (enc_item_drawn(a->items, i) || n >= ENC_MAX_ITEMS) {
			ok = 0;	/* named by the seat: checked as written */
			break;
		}
		items[n++] = *it;
		if (it->kind != ENC_ITEM_NUMBER || it->group < 0 || it->group >= 32 ||
		    !((draws >> it->group) & 1))
			continue;
		int pile = it->number - 1, v[ENC_MAX_DECK];
		int m = pile >= 0 && pile < ENC_PILES ? enc_pile_list(s, a->seat, pile, v) : 0;
		int card = taken[pile] < m ? s->p[a->seat].inst[v[taken[pile]]].card : -1;
		if (card < 0 || n >= ENC_MAX_ITEMS) {
			ok = 0;
			break;
		}
		taken[pile]++;
		memset(&items[n], 0, sizeof items[n]);
		items[n].kind = ENC_ITEM_CARD;
		items[n].group = it->group;
		items[n].card = (short)card;
		items[n++].inst = -1;
	}
	if (ok) {
		hg_action named = *a;
		named.items = items;
		named.nitems = n;
		hg_buf who;
		hg_buf_init(&who);
		enc_format(s, &named, &who, out);
		hg_buf_free(&who);
	}
	if (a)
		enc_free_action(a);
	hg_action_text_free(&t);
	hg_diags_free(&quiet);
}

/* The cards a set-up and a draw take, named as the seed dealt the piles:
 * the first six cards of the pile set up, the top card of the pile drawn
 * from (rule 5, rule 6.A).  Nothing for any other action, or when the
 * seat named the cards already. */
void enc_chance_fill(const hg_state *s, const char *seat_name, const char *body, hg_buf *out)
{
	int seat = -1;
	for (int i = 0; i < s->nseats; i++)
		if (hg_name_eq(enc_seat_name(i), seat_name))
			seat = i;
	char word[8];
	int pile, used = 0;
	if (seat < 0 || !s->seeded)
		return;
	if (sscanf(body, "%7s %d%n", word, &pile, &used) != 2 || body[used] != '\0' ||
	    pile < 1 || pile > ENC_PILES) {
		fill_effect_draws(s, enc_seat_name(seat), body, out);
		return;
	}
	hg_buf filled;
	hg_buf_init(&filled);
	hg_buf_puts(&filled, body);
	int rc = -1;
	if (strcmp(word, "draw") == 0) {
		rc = card_of(s, seat, enc_pile_top(s, seat, pile - 1), &filled);
	} else if (strcmp(word, "setup") == 0) {
		int v[ENC_MAX_DECK];
		int n = enc_pile_list(s, seat, pile - 1, v);
		rc = 0;
		for (int i = 0; i < n && i < ENC_SETUP_CARDS && rc == 0; i++)
			rc = card_of(s, seat, v[i], &filled);
	}
	if (rc == 0 && !hg_buf_failed(&filled))
		hg_buf_puts(out, filled.data);
	hg_buf_free(&filled);
}
