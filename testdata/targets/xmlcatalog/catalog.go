// Package xmlcatalog is a realistic gfz target: encoding/xml decoding into
// a schema-checked model of a book catalog.
//
// Validity is split like Zest's: the syntax stage is encoding/xml's strict
// decoder (a *xml.SyntaxError from Unmarshal), the semantic stage is
// Unmarshal's mapping onto Catalog plus Validate (the schema below). A panic in encoding/xml is a FAILURE, and so is a valid
// catalog that does not survive xml.Marshal and xml.Unmarshal unchanged.
//
//	<catalog version="1|2">
//	  <book id="unique, non-empty" lang="en|de|fr">   (1 or more)
//	    <title>non-empty</title>
//	    <author>non-empty</author>                    (1 or more)
//	    <year>1450..2100</year>
//	    <price currency="EUR|USD">decimal >= 0</price> (optional)
//	  </book>
//	</catalog>
package xmlcatalog

import (
	"encoding/xml"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Catalog is the root element.
type Catalog struct {
	XMLName xml.Name `xml:"catalog"`
	Version string   `xml:"version,attr"`
	Books   []Book   `xml:"book"`
}

// Book is one catalog entry.
type Book struct {
	ID      string   `xml:"id,attr"`
	Lang    string   `xml:"lang,attr,omitempty"`
	Title   string   `xml:"title"`
	Authors []string `xml:"author"`
	Year    int      `xml:"year"`
	Price   *Price   `xml:"price"`
}

// Price is an amount in a currency.
type Price struct {
	Currency string `xml:"currency,attr"`
	Amount   string `xml:",chardata"`
}

// Stage is how far a document got.
type Stage int

// Stages of Load.
const (
	SyntaxError Stage = iota // encoding/xml's tokenizer rejected it (*xml.SyntaxError)
	SchemaError              // well-formed but does not fit the model or the schema
	Valid
)

// Load decodes and validates doc.
func Load(doc string) (*Catalog, Stage, error) {
	var c Catalog
	if err := xml.Unmarshal([]byte(doc), &c); err != nil {
		var syn *xml.SyntaxError
		if errors.As(err, &syn) {
			return nil, SyntaxError, fmt.Errorf("decode: %w", err)
		}
		// Wrong root element, a year that is not a number, ...
		return nil, SchemaError, fmt.Errorf("decode: %w", err)
	}
	if err := Validate(&c); err != nil {
		return nil, SchemaError, fmt.Errorf("schema: %w", err)
	}
	return &c, Valid, nil
}

// Validate checks c against the schema.
func Validate(c *Catalog) error {
	if c.XMLName.Space != "" {
		return errors.New("catalog must not be in a namespace")
	}
	if c.Version != "1" && c.Version != "2" {
		return fmt.Errorf("version %q: want 1 or 2", c.Version)
	}
	if len(c.Books) == 0 {
		return errors.New("no book")
	}
	var ids []string
	for i, b := range c.Books {
		if strings.TrimSpace(b.ID) == "" || slices.Contains(ids, b.ID) {
			return fmt.Errorf("book %d: missing or duplicate id %q", i, b.ID)
		}
		ids = append(ids, b.ID)
		if b.Lang != "" && b.Lang != "en" && b.Lang != "de" && b.Lang != "fr" {
			return fmt.Errorf("book %s: lang %q", b.ID, b.Lang)
		}
		if strings.TrimSpace(b.Title) == "" {
			return fmt.Errorf("book %s: no title", b.ID)
		}
		if len(b.Authors) == 0 || slices.ContainsFunc(b.Authors, func(a string) bool { return strings.TrimSpace(a) == "" }) {
			return fmt.Errorf("book %s: missing author", b.ID)
		}
		if b.Year < 1450 || b.Year > 2100 {
			return fmt.Errorf("book %s: year %d", b.ID, b.Year)
		}
		if p := b.Price; p != nil {
			if p.Currency != "EUR" && p.Currency != "USD" {
				return fmt.Errorf("book %s: currency %q", b.ID, p.Currency)
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(p.Amount), 64)
			if err != nil || v < 0 {
				return fmt.Errorf("book %s: price %q", b.ID, p.Amount)
			}
		}
	}
	return nil
}

// RoundTrip checks that c survives xml.Marshal and xml.Unmarshal.
func RoundTrip(c *Catalog) error {
	out, err := xml.Marshal(c)
	if err != nil {
		return fmt.Errorf("marshal a valid catalog: %w", err)
	}
	var back Catalog
	if err := xml.Unmarshal(out, &back); err != nil {
		return fmt.Errorf("unmarshal of marshaled catalog %s: %w", out, err)
	}
	c.XMLName, back.XMLName = xml.Name{}, xml.Name{}
	if !reflect.DeepEqual(*c, back) {
		return fmt.Errorf("round trip changed the catalog:\n%#v\n%#v", *c, back)
	}
	return nil
}
