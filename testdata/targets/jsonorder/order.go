// Package jsonorder is a realistic gfz target: encoding/json decoding into
// typed structs with validation, for an order of an online shop.
//
// Validity is split like Zest's: the syntax stage is the JSON grammar (a
// *json.SyntaxError), the semantic stage is the mapping onto Order (unknown
// fields are rejected, types must match) plus Validate. A panic is a
// FAILURE, and so is a valid order that does not survive json.Marshal and
// a strict json.Unmarshal unchanged.
package jsonorder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Order is the document.
type Order struct {
	ID       string            `json:"id"`
	Customer Customer          `json:"customer"`
	Items    []Item            `json:"items"`
	Currency string            `json:"currency"`
	Notes    *string           `json:"notes,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
}

// Customer places the order.
type Customer struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Item is one order line.
type Item struct {
	SKU      string  `json:"sku"`
	Quantity int     `json:"quantity"`
	Price    float64 `json:"price"`
}

// Stage is how far a document got.
type Stage int

// Stages of Load.
const (
	SyntaxError Stage = iota // not JSON
	SchemaError              // JSON, but not a valid Order
	Valid
)

// Load decodes doc strictly and validates it.
func Load(doc string) (*Order, Stage, error) {
	var o Order
	if err := decode([]byte(doc), &o); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) || !json.Valid([]byte(doc)) {
			return nil, SyntaxError, fmt.Errorf("decode: %w", err)
		}
		return nil, SchemaError, fmt.Errorf("decode: %w", err)
	}
	if err := Validate(&o); err != nil {
		return nil, SchemaError, fmt.Errorf("validate: %w", err)
	}
	return &o, Valid, nil
}

func decode(data []byte, o *Order) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(o); err != nil {
		return err
	}
	if d.More() {
		return errors.New("trailing data")
	}
	return nil
}

// Validate checks the business rules.
func Validate(o *Order) error {
	if o.ID == "" {
		return errors.New("missing id")
	}
	if o.Customer.Name == "" || !strings.Contains(o.Customer.Email, "@") {
		return fmt.Errorf("bad customer %+v", o.Customer)
	}
	if o.Currency != "EUR" && o.Currency != "USD" {
		return fmt.Errorf("currency %q", o.Currency)
	}
	if len(o.Items) == 0 {
		return errors.New("no items")
	}
	for i, it := range o.Items {
		if it.SKU == "" || it.Quantity <= 0 || it.Price < 0 {
			return fmt.Errorf("item %d: %+v", i, it)
		}
	}
	return nil
}

// Total is the order's total.
func Total(o *Order) float64 {
	sum := 0.0
	for _, it := range o.Items {
		sum += float64(it.Quantity) * it.Price
	}
	return sum
}

// RoundTrip checks that o survives json.Marshal and a strict decode.
func RoundTrip(o *Order) error {
	out, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("marshal a valid order: %w", err)
	}
	var back Order
	if err := decode(out, &back); err != nil {
		return fmt.Errorf("decode of marshaled order %s: %w", out, err)
	}
	if !reflect.DeepEqual(*o, back) {
		return fmt.Errorf("round trip changed the order:\n%#v\n%#v", *o, back)
	}
	return nil
}
