package mcptool

import "github.com/siftd/sift/internal/apiv1"

// The batch tools' own inputs and outputs. The fetch, search and
// batch_submit tools take and return apiv1's /v1 shapes themselves; every
// output's JSON schema is the tool's declared output schema.

// BatchStatusInput is the batch_status tool's input.
type BatchStatusInput struct {
	JobID   string `json:"job_id" jsonschema:"the job_id batch_submit returned"`
	Wait    int    `json:"wait,omitempty" jsonschema:"seconds to wait for the job to finish before answering; 0 answers at once"`
	Results bool   `json:"results,omitempty" jsonschema:"inline every finished target's result (large); batch_result reads one"`
}

// BatchStatusOutput is a job's summary.
type BatchStatusOutput struct {
	JobID        string        `json:"job_id"`
	Status       string        `json:"status" jsonschema:"queued, running, done, partial, failed or cancelled"`
	Error        string        `json:"error,omitempty"`
	TargetsTotal int           `json:"targets_total"`
	TargetsDone  int           `json:"targets_done"`
	CreatedAt    string        `json:"created_at"`
	ExpiresAt    string        `json:"expires_at"`
	Targets      []BatchTarget `json:"targets"`
}

// BatchTarget is one target of a job.
type BatchTarget struct {
	Idx    int                `json:"idx"`
	URL    string             `json:"url"`
	Status string             `json:"status"`
	Error  string             `json:"error,omitempty"`
	Hint   string             `json:"hint,omitempty"`
	Result *apiv1.FetchAnswer `json:"result,omitempty"`
}

// BatchResultInput is the batch_result tool's input.
type BatchResultInput struct {
	JobID string `json:"job_id"`
	Idx   int    `json:"idx" jsonschema:"the target's index in the submitted list, from 0"`
}

// BatchResultOutput is one target with its result.
type BatchResultOutput struct {
	JobID string `json:"job_id"`
	BatchTarget
}

// BatchCancelInput is the batch_cancel tool's input.
type BatchCancelInput struct {
	JobID string `json:"job_id"`
}

// BatchCancelOutput is the cancellation's answer.
type BatchCancelOutput struct {
	Status string `json:"status"`
}
