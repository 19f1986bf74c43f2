/* cmd-judge.c - `herald judge`: the e-mail judge's command line (the
 * judge itself is src/judge/).  One message on standard input, as a mail
 * filter hands it over, or with --tick every game's deadline. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "judge/judge.h"
#include "judge/referee.h"

/* sysexits.h's EX_TEMPFAIL: the mail system keeps the message and tries
 * again later. */
#define JUDGE_EXIT_TEMPFAIL 75

enum {
	OPT_SENDMAIL = 0x100,
	OPT_SENDMAIL_PROGRAM,
	OPT_FROM,
	OPT_TICK,
	OPT_NOW
};

typedef struct judge_run {
	cli_common common;
	const char *dir;
	const char *out;
	int sendmail;
	const char *sendmail_program;
	const char *from;
	int tick;
	int has_now;
	unsigned long now;
} judge_run;

static int judge_option(void *ctx, int opt, const char *arg);

static const struct option longopts[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "out", required_argument, NULL, 'o' },
	{ "sendmail", no_argument, NULL, OPT_SENDMAIL },
	{ "sendmail-program", required_argument, NULL, OPT_SENDMAIL_PROGRAM },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "tick", no_argument, NULL, OPT_TICK },
	{ "now", required_argument, NULL, OPT_NOW },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "judge",
	.synopsis = "--dir=GAMES --from=ADDRESS (--out=MAILDIR | --sendmail) < MESSAGE\n"
		    "--dir=GAMES --from=ADDRESS (--out=MAILDIR | --sendmail) --tick",
	.about =
	N_("The e-mail judge: reads one e-mail message on standard input (as a mail\n"
	"filter hands it over), finds its game by the id in brackets in the subject\n"
	"and its seat by the sender's address, applies the commands of its plain\n"
	"text, and writes to every seat what it may see; or starts a game ('new').\n"
	"With --tick (for cron), sends reminders for passed deadlines and ends a\n"
	"game by forfeit after 3 missed deadlines in a row.  A message that is not\n"
	"understood is kept in GAMES/failed/ (a Maildir) and answered.\n"
	"\n"
	"Exit status: 0 the message was handled (also when it was refused), 2 a\n"
	"usage error, 75 (EX_TEMPFAIL) when the message could not be kept or a\n"
	"reply not written: the mail system tries again later, and a message\n"
	"already applied is not applied twice.\n"),
	.options_help =
	N_("  -d, --dir=GAMES             the games' directory (made when missing)\n"
	"      --from=ADDRESS          the judge's own address (From: of its replies)\n"
	"  -o, --out=MAILDIR           write the replies into this Maildir\n"
	"      --sendmail              hand each reply to `sendmail -t -oi`\n"
	"      --sendmail-program=PROG run PROG instead of sendmail (also the\n"
	"                              environment variable HERALD_SENDMAIL)\n"
	"      --tick                  handle the deadlines instead of a message\n"
	"      --now=SECONDS           take this time (seconds since 1970) as now\n"),
	.shortopts = "d:o:",
	.longopts = longopts,
	.option = judge_option,
};

static int judge_option(void *ctx, int opt, const char *arg)
{
	judge_run *r = ctx;
	switch (opt) {
	case 'd':
		r->dir = arg;
		return 0;
	case 'o':
		r->out = arg;
		return 0;
	case OPT_SENDMAIL:
		r->sendmail = 1;
		return 0;
	case OPT_SENDMAIL_PROGRAM:
		r->sendmail_program = arg;
		return 0;
	case OPT_FROM:
		r->from = arg;
		return 0;
	case OPT_TICK:
		r->tick = 1;
		return 0;
	case OPT_NOW:
		r->has_now = 1;
		return cli_parse_number(&spec, "--now", arg, 0, 253402300799UL, &r->now);
	}
	return -1;
}

/* ------------------------------------------------------------------------
 * The exit hook.  Where the judge cannot go on short of memory it exits
 * (cli_out_of_memory: status 2), and GLib ends the process (SIGTRAP or
 * SIGABRT) when one of GMime's allocations fails; either way, the record changed by this run is put
 * back as it was (judge_undo) and the incoming message kept in failed/new/
 * for a rerun (herald-judge(1), EXIT STATUS).  Only system calls that are
 * safe in a signal handler, on paths made beforehand.
 * ------------------------------------------------------------------------ */
static judge_undo undo;
static char spooled_tmp[4096], spooled_new[4096];
static volatile sig_atomic_t spooled_pending;

static void rescue(void)
{
	if (undo.record[0]) {
		int fd = open(undo.temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		const char *at = undo.data;
		size_t left = undo.len;
		while (fd >= 0 && left > 0) {
			ssize_t w = write(fd, at, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			at += w;
			left -= (size_t)w;
		}
		if (fd >= 0 && left == 0 && fsync(fd) == 0 && close(fd) == 0)
			(void)rename(undo.temp, undo.record);
		else if (fd >= 0)
			(void)unlink(undo.temp);
		undo.record[0] = '\0';
	}
	if (spooled_pending) {
		(void)link(spooled_tmp, spooled_new);
		(void)unlink(spooled_tmp);
		spooled_pending = 0;
	}
}

static void rescue_on_abort(int sig)
{
	rescue();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void arm_rescue(void)
{
	atexit(rescue);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = rescue_on_abort;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGTRAP, &sa, NULL);	/* (g_error's breakpoint) */
}

/* Reads the message into GAMES/failed/tmp/ (first of all, so that what
 * follows can keep it): 0 with *base set, or EX_TEMPFAIL after saying
 * why (the mail system keeps the message). */
static int spool_message(const char *games, char **base, int *truncated)
{
	hg_buf failed;
	hg_buf_init(&failed);
	hg_buf_printf(&failed, "%s/failed", games);
	if (hg_buf_failed(&failed))
		errno = ENOMEM;
	if (hg_buf_failed(&failed) ||
	    judge_maildir_spool(failed.data, 0, JUDGE_MAX_MESSAGE, base, truncated) != 0) {
		cli_error("judge", "cannot keep the message in %s/failed: %s", games, strerror(errno));
		hg_buf_free(&failed);
		return JUDGE_EXIT_TEMPFAIL;
	}
	int named = snprintf(spooled_tmp, sizeof spooled_tmp, "%s/tmp/%s", failed.data, *base);
	if (named > 0 && (size_t)named < sizeof spooled_tmp &&
	    (size_t)snprintf(spooled_new, sizeof spooled_new, "%s/new/%s", failed.data, *base) <
	    sizeof spooled_new)
		spooled_pending = 1;	/* from here on the exit hook keeps it */
	hg_buf_free(&failed);
	return 0;
}

/* Parses and handles the spooled message; the file then goes into
 * failed/new/ when the message was not understood or memory ran out. */
static int handle_message(judge_ctx *c, const char *base, int truncated)
{
	hg_buf failed, path;
	hg_buf_init(&failed);
	hg_buf_init(&path);
	hg_buf_printf(&failed, "%s/failed", c->games);
	cli_buf_check(&failed);	/* (the exit hook keeps the message) */
	hg_buf_printf(&path, "%s/tmp/%s", failed.data, base);
	cli_buf_check(&path);
	judge_mail m;
	judge_mail_read(path.data, truncated, &m);
	int keep = 0;
	int rc = judge_handle(c, &m, &keep);
	spooled_pending = 0;	/* kept or dropped below */
	int status = CLI_EXIT_OK;
	if (keep) {
		if (judge_maildir_keep(failed.data, base) != 0) {
			cli_error("judge", "cannot keep the message in %s: %s", failed.data, strerror(errno));
			status = JUDGE_EXIT_TEMPFAIL;
		}
	} else {
		judge_maildir_drop(failed.data, base);
	}
	if (rc == HG_ENOMEM)
		status = CLI_EXIT_USAGE;	/* said by the caller */
	else if (rc != 0)
		status = JUDGE_EXIT_TEMPFAIL;
	judge_mail_free(&m);
	hg_buf_free(&path);
	hg_buf_free(&failed);
	return status;
}

int cli_judge_main(int argc, char **argv)
{
	judge_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first < argc)
		return cli_usage_error(&spec, "extra operand '%s' (the message comes on standard input)",
				       argv[first]);
	if (!r.dir)
		return cli_usage_error(&spec, "missing --dir=GAMES");
	if (!r.from || !strchr(r.from, '@'))
		return cli_usage_error(&spec, "missing --from=ADDRESS (the judge's own address)");
	if (!r.out == !r.sendmail)
		return cli_usage_error(&spec, "say where replies go: --out=MAILDIR or --sendmail");
	if (r.sendmail_program && !r.sendmail)
		return cli_usage_error(&spec, "--sendmail-program goes with --sendmail");
	if (mkdir(r.dir, 0700) != 0 && errno != EEXIST) {
		cli_error("judge", "cannot make %s: %s", r.dir, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	const char *program = r.sendmail_program;
	if (!program)
		program = getenv("HERALD_SENDMAIL");
	if (!program || !*program)
		program = "/usr/sbin/sendmail";
	judge_outbox box = {
		.maildir = r.out, .sendmail = r.sendmail ? program : NULL, .from = r.from,
		.now = r.has_now ? (time_t)r.now : time(NULL),
	};
	arm_rescue();
	char *base = NULL;
	int truncated = 0;
	if (!r.tick && (status = spool_message(r.dir, &base, &truncated)) != 0)
		return status;
	judge_mail_init();
	hg_session *session = hg_session_new(r.common.data_dir);
	if (!session)
		cli_wrote(HG_ENOMEM);	/* (says so and exits) */
	judge_ctx c = { .games = r.dir, .session = session, .box = &box, .now = box.now, .undo = &undo };
	if (r.tick) {
		int ticked = judge_tick(&c);
		status = ticked == 0 ? CLI_EXIT_OK : ticked == HG_ENOMEM ? CLI_EXIT_USAGE : JUDGE_EXIT_TEMPFAIL;
	} else {
		status = handle_message(&c, base, truncated);
	}
	free(base);
	hg_session_free(session);
	judge_mail_shutdown();
	if (c.out_of_memory)
		cli_out_of_memory();	/* (says so; status 2) */
	return status;
}
