package model

// Ceiling exposes the optimiser's ceiling on the prediction to the tests.
var Ceiling = ceiling
