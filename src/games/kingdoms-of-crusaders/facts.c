/* facts.c - The Kingdoms of Crusaders' position facts, for `herald select
 * --position` (herald-select(1), POSITION FACTS): who won a sector's
 * territory, how many a seat has won, how many markers are down. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "koc.h"

const char *const hg_koc_facts[] = {
	"winner SECTOR: the seat that won the territory of sector 1 to 5, or none",
	"won SEAT: the territories the seat has won",
	"markers: the victory markers placed",
	NULL
};

/* A sector written 1 to KOC_SECTORS, as the actions write it: its index,
 * or -1. */
static int sector_of(const char *arg)
{
	if (arg[0] < '1' || arg[0] > '0' + KOC_SECTORS || arg[1])
		return -1;
	return arg[0] - '1';
}

int hg_koc_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out)
{
	if (strcmp(name, "winner") == 0) {
		int k = sector_of(arg);
		if (k < 0)
			return -1;
		hg_buf_puts(out, s->winner[k] >= 0 ? hg_koc_seat_name((unsigned)s->winner[k]) : "none");
		return 0;
	}
	if (strcmp(name, "won") == 0) {
		int seat = hg_koc_seat_find(s, arg);
		if (seat < 0)
			return -1;
		unsigned n = 0;
		for (int k = 0; k < KOC_SECTORS; k++)
			n += s->winner[k] == seat;
		hg_buf_printf(out, "%u", n);
		return 0;
	}
	if (strcmp(name, "markers") == 0 && !*arg) {
		hg_buf_printf(out, "%u", s->markers);
		return 0;
	}
	return -1;
}
