/* cmd-reveal.c - `herald reveal`: publishes a master record's secret seed
 * (the SeedReveal tag), after which anyone can verify every card and die
 * with 'herald check' (herald-reveal(1)). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct reveal_run {
	cli_common common;
	const char *key;
} reveal_run;

static cli_spec spec;

static int reveal_option(void *ctx, int opt, const char *arg)
{
	reveal_run *r = ctx;
	if (opt == 'k') {
		r->key = arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "key", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "reveal",
	.synopsis = "[OPTION]... FILE",
	.about =
	"Publish the secret seed of the master record FILE: herald adds the tag\n"
	"SeedReveal (the secret from FILE.key) and rewrites FILE atomically under\n"
	"the key file's lock.  The game then takes no more moves; 'herald check\n"
	"FILE' verifies that the secret matches SeedCommit and that every card\n"
	"and die follows from it.  Usually run at the end of the game; run earlier,\n"
	"it closes the game.\n"
	"\n"
	"Exit status: 0 when the seed was published, 1 when the record would not\n"
	"take it, 2 on a usage or input/output error.\n",
	.options_help =
	"  -k, --key=KEYFILE      the key file (default FILE.key)\n",
	.shortopts = "k:",
	.longopts = longopts,
	.option = reveal_option,
};

int cli_reveal_main(int argc, char **argv)
{
	reveal_run r;
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
	hg_session *session = cli_session_new(&r.common);
	hg_diags d;
	hg_diags_init(&d);
	hg_master *m = hg_master_open(session, argv[first], r.key, 1, &d);
	if (!m) {
		status = CLI_EXIT_USAGE;
	} else {
		status = hg_master_reveal(m, &d) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
		if (status == CLI_EXIT_OK)
			printf("%s: the seed is revealed; 'herald check %s' verifies the game\n",
			       argv[first], argv[first]);
		hg_master_close(m);
	}
	cli_print_diags(stderr, &d, cli_use_colour(&r.common, stderr), r.common.quiet);
	hg_diags_free(&d);
	hg_session_free(session);
	return status;
}
