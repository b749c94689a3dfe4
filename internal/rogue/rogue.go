package rogue

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
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

// Failed answers with an error result instead of the outcomes: a
// FailedBytes error text, as long as a hostile client cares to make it.
func Failed(b *cluster.Batch, r cluster.Result) cluster.Result {
	return cluster.Result{Error: "no: " + strings.Repeat("x", FailedBytes-4)}
}

// FailedBytes is the length of Failed's error text.
const FailedBytes = 64 << 10

// Client is the rogue: Run pulls batches and answers each with Forge of
// its honest result, under Name; with Bomb set, with a result message
// that inflates to Bomb bytes (a gzip bomb) instead; with Refuse set, it
// gives every batch back at once (a NAK, no notice) and answers none.
type Client struct {
	Conn  *nats.Conn
	Name  string
	Forge Forge
	// Bomb, when positive, is the inflated size of the result messages.
	Bomb int
	// Refuse makes the rogue give back every batch it takes.
	Refuse bool
	// Answered is closed after the first forged result is published (the
	// first batch given back, with Refuse).
	Answered chan struct{}

	answers atomic.Int64
	filler  []byte // Bomb's padding, compressed once
}

// answered counts an answer, closing Answered after the first.
func (c *Client) answered() {
	if c.answers.Add(1) == 1 && c.Answered != nil {
		close(c.Answered)
	}
}

// Answers is the number of forged results published (batches given
// back, with Refuse).
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
			if c.Refuse {
				msg.Nak()
				c.answered()
				continue
			}
			if json.Unmarshal(msg.Data(), &b) != nil || b.Kind != "" {
				msg.Nak()
				continue
			}
			data, err := c.answer(ctx, &b)
			if err != nil {
				msg.Nak()
				continue
			}
			if _, err := js.PublishMsg(ctx, &nats.Msg{Subject: b.ResultSubject(), Data: data}, jetstream.WithMsgID(b.Key())); err != nil {
				msg.Nak()
				continue
			}
			msg.Ack()
			c.answered()
		}
	}
	return nil
}

// answer is the message the rogue publishes for b: Forge of its honest
// result, or a bomb.
func (c *Client) answer(ctx context.Context, b *cluster.Batch) ([]byte, error) {
	if c.Bomb > 0 {
		return c.bomb(b.Key()), nil
	}
	honest, err := play(ctx, b)
	if err != nil {
		return nil, err
	}
	r := c.Forge(b, honest)
	r.Key, r.Worker = b.Key(), c.Name
	return cluster.EncodeResult(r)
}

// bomb is a result of the batch with key whose error text is Bomb bytes
// of '0': three gzip members (a reader inflates them as one stream), the
// middle one, the padding, compressed once. The key and worker come
// first, as in an honest result.
func (c *Client) bomb(key string) []byte {
	if c.filler == nil {
		c.filler = deflate(bytes.Repeat([]byte("0"), c.Bomb))
	}
	head, _ := json.Marshal(map[string]string{"key": key, "worker": c.Name})
	head = append(head[:len(head)-1], `,"error":"`...)
	out := append(deflate(head), c.filler...)
	return append(out, deflate([]byte(`"}`))...)
}

// deflate is data as one gzip member.
func deflate(data []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// play is the batch's honest result.
func play(ctx context.Context, b *cluster.Batch) (cluster.Result, error) {
	ref, err := b.Setup.Referee(1)
	if err != nil {
		return cluster.Result{}, err
	}
	return b.Play(ctx, ref, nil)
}
