/* master-run.c - what `herald move`, `entropy`, `reveal` and `end` share:
 * the game opened under its key's lock, one change tried, what the seat is
 * told printed, the diagnostics shown, and one mapping to an exit status. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static int has_code(const hg_diags *d, const char *code)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].code, code) == 0)
			return 1;
	return 0;
}

int cli_master_run(const cli_common *common, const char *command, const char *path,
		   const char *key, int wait, cli_master_change change, void *ctx)
{
	hg_session *session = cli_session_new(common);
	hg_diags d;
	hg_diags_init(&d);
	int status;
	hg_master *m = hg_master_open(session, path, key, wait, &d);
	if (!m) {
		/* a record that is itself wrong is refused; anything else kept
		 * herald from reading it */
		status = has_code(&d, "master.record") ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
	} else {
		hg_buf told;
		hg_buf_init(&told);
		int rc = change(m, ctx, &told, &d);
		if (rc == 0)
			status = cli_flush_buf(command, stdout, &told) == 0 ? CLI_EXIT_OK
									   : CLI_EXIT_USAGE;
		else	/* (out of memory, as an I/O error, left the files as they were) */
			status = rc == HG_ENOMEM || has_code(&d, "master.io") ? CLI_EXIT_USAGE
									       : CLI_EXIT_FAIL;
		hg_buf_free(&told);
		hg_master_close(m);
	}
	cli_print_diags(stderr, &d, cli_use_colour(common, stderr), common->quiet);
	hg_diags_free(&d);
	hg_session_free(session);
	return status;
}
