/* view.c - what one seat of The Kingdoms of Crusaders may see
 * (herald-kingdoms-of-crusaders(7), SEAT VIEWS): the cards dealt to and
 * drawn by the other seats are hidden until they are placed; placements
 * and territories won are public. */
#include "config.h"

#include <string.h>

#include "koc.h"

int hg_koc_seat_find(const hg_state *s, const char *name)
{
	char word[8];
	if (hg_name_fold_to(name, word, sizeof word) < sizeof word)
		for (unsigned i = 0; i < s->nplayers; i++) {
			char seat[8];
			hg_name_fold_to(hg_koc_seat_name(i), seat, sizeof seat);
			if (strcmp(word, seat) == 0)
				return (int)i;
		}
	for (unsigned i = 0; i < s->nplayers; i++)
		if (s->names[i] && s->names[i][0] && hg_name_eq(name, s->names[i]))
			return (int)i;
	return -1;
}

const char *hg_koc_view_seat_name(const hg_state *s, unsigned seat)
{
	return seat < s->nplayers ? hg_koc_seat_name(seat) : NULL;
}

void hg_koc_view_action(const hg_state *before, const hg_state *after, const hg_action *a,
			unsigned seat, hg_buf *seat_out, hg_buf *body)
{
	(void)after;
	hg_action seen = *a;
	seen.home = NULL;
	if (a->verb == KOC_DEAL || a->verb == KOC_DRAW) {
		for (unsigned i = 0; i < a->ncards; i++) {
			if (a->seat != seat)
				seen.card[i] = KOC_HIDDEN;
			else if (a->card[i] == KOC_HIDDEN && before->order_known)
				/* The deck order (Seed) gives the seat its own
				 * card, which the record left unnamed. */
				seen.card[i] = before->order[before->dealt + i];
		}
	}
	hg_koc_format(before, &seen, seat_out, body);
}

int hg_koc_names_chance(const hg_state *s, const hg_action *a)
{
	(void)s;
	if (a->verb != KOC_DEAL && a->verb != KOC_DRAW)
		return 0;
	for (unsigned i = 0; i < a->ncards; i++)
		if (a->card[i] != KOC_HIDDEN)
			return 1;
	return 0;
}
