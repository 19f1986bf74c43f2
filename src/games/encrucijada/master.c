/* master.c - remote play of Encrucijada (herald-move(1)): the seats, and
 * the cards herald names.  A seat chooses the pile it sets up from or draws
 * from and writes only that (`setup 2`, `draw 3`); herald names the cards
 * the seed deals there, so that the master record holds every card. */
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
	if (seat < 0 || !s->seeded ||
	    sscanf(body, "%7s %d%n", word, &pile, &used) != 2 || body[used] != '\0' ||
	    pile < 1 || pile > ENC_PILES)
		return;
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
	if (rc == 0)
		hg_buf_puts(out, filled.data);
	hg_buf_free(&filled);
}
