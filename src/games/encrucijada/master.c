/* master.c - remote play of Encrucijada (herald-move(1)): the seats.  No
 * action is chance: a seat draws from the pile it chooses, and the seed
 * gives the card without the record naming it, so herald adds nothing to
 * what the seat writes. */
#include "config.h"

#include "enc.h"

const char *enc_seat(const hg_state *s, unsigned i)
{
	return i < (unsigned)s->nseats ? enc_seat_name((int)i) : NULL;
}
