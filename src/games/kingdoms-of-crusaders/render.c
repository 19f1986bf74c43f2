/* render.c - a plain-text picture of a position: the deck, whose turn it
 * is, every player's hand (cards only where the record shows them), the
 * five sectors of every location card with each card's symbols and the
 * squads each army forms, and the victory markers. */
#include "config.h"

#include <string.h>

#include "koc.h"

static void render_status(const hg_state *s, hg_buf *out)
{
	hg_buf_printf(out, "The Kingdoms of Crusaders: %u players, %s variant, round %u\n",
		      s->nplayers, s->points ? "points" : "markers", hg_koc_turn(s));
	hg_buf_printf(out, "deck: %zu card%s%s\n", s->cards->n - s->dealt,
		      s->cards->n - s->dealt == 1 ? "" : "s",
		      s->order_known ? " (order known)" : "");
	if (s->phase == KOC_PHASE_OVER) {
		hg_buf_printf(out, "over: %s\n", s->result);
		return;
	}
	for (unsigned i = 0; i < s->npending; i++)
		hg_buf_printf(out, "to write: %s: win %u #%u\n", hg_koc_seat_name(s->pending[i].seat),
			      s->pending[i].sector + 1, s->pending[i].marker);
	if (s->npending)
		return;
	static const char *const duty[] = { "to be dealt five cards", "to draw", "to place a card" };
	if (!s->first_known)
		hg_buf_puts(out, "to move: any seat, to be dealt five cards (the first dealt plays "
			    "first)\n");
	else
		hg_buf_printf(out, "to move: %s, %s\n", hg_koc_seat_name(s->to_move), duty[s->phase]);
}

static void render_hand(const hg_state *s, unsigned p, hg_buf *out)
{
	hg_buf_printf(out, "  hand: %u card%s", s->hand[p], s->hand[p] == 1 ? "" : "s");
	const char *sep = ": ";
	for (size_t c = 0; c < s->cards->n; c++)
		if (s->loc[c] == KOC_IN_HAND + p) {
			hg_buf_puts(out, sep);
			hg_koc_card_describe(s->cards, (unsigned)c, out);
			sep = ", ";
		}
	if (s->hidden[p])
		hg_buf_printf(out, "%s%u hidden", sep, s->hidden[p]);
	hg_buf_putc(out, '\n');
}

static void render_sector(const hg_state *s, unsigned p, unsigned k, hg_buf *out)
{
	unsigned n = s->nsector[p][k];
	hg_buf_printf(out, "  sector %u (%u/4):", k + 1, n);
	for (unsigned i = 0; i < n; i++) {
		hg_buf_putc(out, ' ');
		hg_koc_card_describe(s->cards, s->sector[p][k][i], out);
	}
	if (n) {
		hg_buf_puts(out, n == KOC_ARMY ? "\n    army: " : "\n    so far: ");
		hg_koc_key_describe(hg_koc_sector_key(s, p, k), out);
	}
	if (s->winner[k] == (int)p)
		hg_buf_printf(out, "%svictory marker #%u", n ? "; " : " ", s->marker[k]);
	hg_buf_putc(out, '\n');
}

void hg_koc_render(const hg_state *s, hg_buf *out)
{
	render_status(s, out);
	for (unsigned p = 0; p < s->nplayers; p++) {
		hg_buf_printf(out, "%s", hg_koc_seat_name(p));
		if (s->names[p] && s->names[p][0])
			hg_buf_printf(out, " (%s)", s->names[p]);
		if (s->first_known && p == s->first)
			hg_buf_puts(out, ", first player");
		unsigned won = 0;
		for (unsigned k = 0; k < KOC_SECTORS; k++)
			won += s->winner[k] == (int)p;
		hg_buf_printf(out, ", %u victory marker%s\n", won, won == 1 ? "" : "s");
		render_hand(s, p, out);
		for (unsigned k = 0; k < KOC_SECTORS; k++)
			render_sector(s, p, k, out);
	}
	/* (separators written before each but the first, not the last cut
	 * off: a buffer that could not grow may hold none) */
	hg_buf_puts(out, "territories:");
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		const char *sep = k ? ";" : "";
		if (s->winner[k] >= 0)
			hg_buf_printf(out, "%s %u %s #%u", sep, k + 1,
				      hg_koc_seat_name((unsigned)s->winner[k]), s->marker[k]);
		else
			hg_buf_printf(out, "%s %u open", sep, k + 1);
	}
	hg_buf_putc(out, '\n');
}
