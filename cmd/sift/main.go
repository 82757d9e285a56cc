// Command sift fetches web resources for AI agents and hands them back
// clean, compact and safe. See README.md and docs/.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/plugins/builtin"
)

func main() {
	// `sift plugin NAME` is how sift runs its own built-in plugins. It must
	// reach Serve before anything writes to stdout, where go-plugin's
	// handshake goes.
	// Any other `sift plugin …` is the author's command group.
	if len(os.Args) == 3 && os.Args[1] == "plugin" && builtin.Serve(os.Args[2]) {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := rootCommand().ExecuteContext(ctx)
	stop()
	if err != nil {
		if _, quiet := err.(exitError); !quiet {
			fmt.Fprintln(terminalSafe(os.Stderr), "sift:", cleanText(err.Error()))
		}
		os.Exit(exitCode(err))
	}
}

// exitError makes sift exit non-zero after the command has already told
// the user why.
type exitError struct{}

func (exitError) Error() string { return "failed" }

func rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "sift",
		Short:         "Fetch web resources for AI agents: clean, compact and safe",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// What sift prints can hold what a web page chose to send.
	root.SetOut(terminalSafe(os.Stdout))
	root.SetErr(terminalSafe(os.Stderr))
	root.AddCommand(
		serveCommand(),
		guardCommand(),
		fetchCommand(),
		searchCommand(),
		mcpCommand(),
		batchCommand(),
		validateCommand(),
		reloadCommand(),
		extractCommand(),
		keyCommand(),
		versionCommand(),
		pluginCommand(),
		pluginsCommand(),
		warmCommand(),
		cacheCommand(),
	)
	return root
}
