/* facts.c - Encrucijada's position facts, for `herald select --position`
 * (herald-select(1), POSITION FACTS): a seat's tower's resistance, whether
 * the seat is out of the game, the wars fought. */
#include "config.h"

#include <string.h>

#include "enc.h"

const char *const enc_facts[] = {
	"resistance SEAT: the resistance of the seat's tower (50 at the start)",
	"eliminated SEAT: yes when the seat has lost (rule 4), else no",
	"wars: the wars fought so far",
	NULL
};

int enc_fact(const hg_state *s, const char *name, const char *arg, hg_buf *out)
{
	if (strcmp(name, "wars") == 0 && !*arg) {
		hg_buf_printf(out, "%d", s->wars);
		return 0;
	}
	int seat = *arg ? enc_find_seat(s, arg) : -1;
	if (seat < 0 || seat >= s->nseats)
		return -1;
	if (strcmp(name, "resistance") == 0) {
		hg_buf_printf(out, "%d", enc_tower_of_c(s, seat)->resistance);
		return 0;
	}
	if (strcmp(name, "eliminated") == 0) {
		hg_buf_puts(out, s->p[seat].eliminated ? "yes" : "no");
		return 0;
	}
	return -1;
}
