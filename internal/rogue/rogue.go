package rogue

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/optimize"
)

// Forge turns the honest result of a batch into the one the rogue sends.
type Forge func(b *cluster.Batch, honest cluster.Result) cluster.Result

// Impossible answers every match with MaxInt64/2 wins and as many losses:
// the counts of the hostile test of 2026-11-26.
func Impossible(b *cluster.Batch, r cluster.Result) cluster.Result {
	for i := range r.Outcomes {
		r.Outcomes[i] = optimize.Outcome{Wins: math.MaxInt64 / 2, Losses: math.MaxInt64 / 2}
	}
	return r
}

// Swapped answers with every match's wins and losses swapped: the same
// totals, the other winner.
func Swapped(b *cluster.Batch, r cluster.Result) cluster.Result {
	for i, o := range r.Outcomes {
		r.Outcomes[i] = optimize.Outcome{Wins: o.Losses, Draws: o.Draws, Losses: o.Wins}
	}
	return r
}

// Rewritten answers with the honest outcomes but game records whose moves
// are those of another game of the batch (every record's numbers,
// players and result stay as they were).
func Rewritten(b *cluster.Batch, r cluster.Result) cluster.Result {
	recs := slices.Clone(r.Records)
	for i := range recs {
		recs[i].Moves = r.Records[(i+1)%len(recs)].Moves
		recs[i].Opening = r.Records[(i+1)%len(recs)].Opening
	}
	r.Records = recs
	return r
}

// Client is the rogue: Run pulls batches and answers each with Forge of
// its honest result, under Name.
type Client struct {
	Conn  *nats.Conn
	Name  string
	Forge Forge
	// Answered is closed after the first forged result is published.
	Answered chan struct{}

	answers atomic.Int64
}

// Answers is the number of forged results published.
func (c *Client) Answers() int64 { return c.answers.Load() }

// Run answers batches until ctx ends (nil then). Errors: the connection
// cannot reach JetStream.
func (c *Client) Run(ctx context.Context) error {
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return err
	}
	var cons jetstream.Consumer
	for {
		if cons, err = js.Consumer(ctx, cluster.BatchStream, cluster.WorkerGroup); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(100 * time.Millisecond):
		}
	}
	for ctx.Err() == nil {
		mb, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		for msg := range mb.Messages() {
			var b cluster.Batch
			if json.Unmarshal(msg.Data(), &b) != nil || b.Kind != "" {
				msg.Nak()
				continue
			}
			honest, err := play(ctx, &b)
			if err != nil {
				msg.Nak()
				continue
			}
			r := c.Forge(&b, honest)
			r.Key, r.Worker = b.Key(), c.Name
			data, err := cluster.EncodeResult(r)
			if err != nil {
				return err
			}
			if _, err := js.PublishMsg(ctx, &nats.Msg{Subject: b.ResultSubject(), Data: data}, jetstream.WithMsgID(r.Key)); err != nil {
				msg.Nak()
				continue
			}
			msg.Ack()
			if c.answers.Add(1) == 1 && c.Answered != nil {
				close(c.Answered)
			}
		}
	}
	return nil
}

// play is the batch's honest result.
func play(ctx context.Context, b *cluster.Batch) (cluster.Result, error) {
	ref, err := b.Setup.Referee(1)
	if err != nil {
		return cluster.Result{}, err
	}
	return b.Play(ctx, ref, nil)
}
