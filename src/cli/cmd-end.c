/* cmd-end.c - `herald end`: the organiser's endings of a game herald
 * referees: a result agreed by the seats, a forfeit, an adjudication
 * (herald-end(1)).  A seat resigns with 'herald move --as SEAT resign'. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct end_run {
	cli_common common;
	const char *key, *agreed, *forfeit, *adjudicate, *reason;
	int kind;		/* HG_END_* the options ask for */
	const char *path;	/* the record, for what is printed */
} end_run;

static cli_spec spec;

static int end_option(void *ctx, int opt, const char *arg)
{
	end_run *r = ctx;
	switch (opt) {
	case 'k': r->key = arg; return 0;
	case 'g': r->agreed = arg; return 0;
	case 'f': r->forfeit = arg; return 0;
	case 'j': r->adjudicate = arg; return 0;
	case 'r': r->reason = arg; return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "key", required_argument, NULL, 'k' },
	{ "agreed", required_argument, NULL, 'g' },
	{ "forfeit", required_argument, NULL, 'f' },
	{ "adjudicate", required_argument, NULL, 'j' },
	{ "reason", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "end",
	.synopsis = "(--agreed=RESULT | --forfeit=SEAT | --adjudicate=RESULT --reason=TEXT) [OPTION]... FILE",
	.about =
	N_("End the game of the master record FILE otherwise than by its rules, as\n"
	"its organiser: with the result the seats agreed (the seats that share it,\n"
	"joined by ', '), by the forfeit of SEAT (time or absence: the result is\n"
	"the one its resignation would give), or by adjudication (any result, with\n"
	"its reason).  herald sets the Termination tag (and Forfeit or\n"
	"TerminationReason), the Result and the termination marker, checks the\n"
	"record as 'herald check' will, and rewrites FILE under its key's lock.\n"
	"\n"
	"Exit status: 0 when the ending was written, 1 when it was refused (FILE\n"
	"unchanged), 2 on a usage or input/output error.\n"),
	.options_help =
	N_("      --agreed=RESULT    a result agreed by the seats (Termination agreement)\n"
	"      --forfeit=SEAT     SEAT forfeits (Termination forfeit)\n"
	"      --adjudicate=RESULT  the organiser's result (Termination adjudication)\n"
	"      --reason=TEXT      why (TerminationReason; required to adjudicate)\n"
	"  -k, --key=KEYFILE      the key file (default FILE.key)\n"),
	.shortopts = "k:",
	.longopts = longopts,
	.option = end_option,
};

static int end_game(hg_master *m, void *ctx, hg_buf *told, hg_diags *d)
{
	end_run *r = ctx;
	const char *result = r->agreed ? r->agreed : r->adjudicate;
	int rc = hg_master_end(m, r->kind, result, r->forfeit, r->reason, d);
	if (rc != 0)
		return rc;
	hg_buf_printf(told, "%s: the game is over: %s (%s)\n", r->path,
		      hg_record_tag_value(hg_master_record(m), "Result"),
		      hg_termination_word(r->kind));
	return 0;
}

int cli_end_main(int argc, char **argv)
{
	end_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE");
	if (first + 1 < argc)
		return cli_usage_error(&spec, "extra operand '%s'", argv[first + 1]);
	int given = !!r.agreed + !!r.forfeit + !!r.adjudicate;
	if (given != 1)
		return cli_usage_error(&spec, "give one of --agreed, --forfeit and --adjudicate");
	if (r.adjudicate && !r.reason)
		return cli_usage_error(&spec, "--adjudicate needs --reason=TEXT");
	r.kind = r.agreed ? HG_END_AGREEMENT : r.forfeit ? HG_END_FORFEIT : HG_END_ADJUDICATION;
	r.path = argv[first];
	return cli_master_run(&r.common, "end", argv[first], r.key, 1, end_game, &r);
}
