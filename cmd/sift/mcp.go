package main

import (
	"github.com/spf13/cobra"

	"github.com/siftd/sift/internal/mcptool"
	"github.com/siftd/sift/internal/siftclient"
)

func mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve sift's tools to an agent over MCP on stdio, calling a running sift (SIFT_URL, SIFT_KEY)",
		Long: "Serve sift's tools (fetch, search, batch_submit, batch_status, batch_result, batch_cancel) over the\n" +
			"Model Context Protocol on stdin and stdout. Each call goes to the sift at SIFT_URL with the key in\n" +
			"SIFT_KEY, as `sift fetch` does. `sift serve` answers the same tools over streamable HTTP at /mcp.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return mcptool.Stdio(siftVersion(), siftclient.FromEnv()).Run(cmd.Context(), &mcptool.StdioTransport{})
		},
	}
}
