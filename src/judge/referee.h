/* referee.h - the judge's game master (referee.c). */
#ifndef HERALD_JUDGE_REFEREE_H
#define HERALD_JUDGE_REFEREE_H

#include "judge.h"

typedef struct judge_ctx {
	const char *games;	/* --dir: the games' directory */
	hg_session *session;
	judge_outbox *box;
	time_t now;
} judge_ctx;

/* Handles one message: applies its commands and sends the replies.
 * *keep: the message is to be kept in failed/ (it was not understood, or
 * was refused unread).  0, or -1 when something could not be written
 * (stderr says what). */
int judge_handle(judge_ctx *c, const judge_mail *m, int *keep);
/* `--tick`: every game's deadline (reminders, forfeits).  0, or -1. */
int judge_tick(judge_ctx *c);

#endif
