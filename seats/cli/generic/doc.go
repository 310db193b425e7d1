// Package generic is the seat adapter of any other CLI (cli.Adapter;
// docs/design.md §9 "Generic CLI"): the person's own command and options,
// {session_id} substituted once, and their own resume line. Where such a
// CLI keeps its conversations is unknown, so a recorded one resumes
// whenever there is a resume line; it reports nothing and holds nothing
// (bytes written is all that is known of it, docs/design.md §5), so its
// seats' activity is read off their terminals (Adapter.Observed:
// output arriving, or a measured silence). It runs no goroutine and takes
// no lock.
package generic
