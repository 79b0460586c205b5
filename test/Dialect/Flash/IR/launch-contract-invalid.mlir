// The GPU mapping's attributes are the flash dialect's: a launch contract
// a tool could not launch from is rejected.
// RUN: flash-opt %s --split-input-file --verify-diagnostics

// expected-error @below {{'rows' is 'nv'}}
module attributes {flash.kernels = [{name = "k", kind = "simt", block = 128 : i64, rows = "nv", rows_per_block = 128 : i64, batch_heads = "bh", args = ["q"], sizes = []}]} {
}

// -----

// expected-error @below {{'block' must be a positive integer}}
func.func @f() attributes {flash.launch = {block = 0 : i64, rows = "nq", rows_per_block = 1 : i64, batch_heads = "bh", args = [], sizes = []}} {
  return
}

// -----

// expected-error @below {{'target_blocks', 'min_blocks_x' and 'max_blocks_x' go together}}
func.func @f() attributes {flash.launch = {block = 32 : i64, rows = "nk", rows_per_block = 64 : i64, batch_heads = "bhkv", args = ["q"], sizes = ["nk"], target_blocks = 1024 : i64}} {
  return
}

// -----

// expected-error @below {{'sizes' must be an array of strings}}
func.func @f() attributes {flash.launch = {block = 32 : i64, rows = "nk", rows_per_block = 64 : i64, batch_heads = "bhkv", args = ["q"], sizes = [1]}} {
  return
}

// -----

// expected-error @below {{'name' must be a string}}
module attributes {flash.kernels = [{kind = "simt", block = 128 : i64, rows = "nq", rows_per_block = 128 : i64, batch_heads = "bh", args = ["q"], sizes = []}]} {
}

// -----

// expected-error @below {{unknown flash attribute 'flash.lanuch'}}
func.func @f() attributes {flash.lanuch = {}} {
  return
}

// -----

// expected-error @below {{'flash.gpu_host' must be a unit attribute}}
func.func @f() attributes {flash.gpu_host = 1 : i64} {
  return
}

// -----

// expected-error @below {{'waits_for_previous' must be a bool}}
func.func @f() attributes {flash.launch = {block = 32 : i64, rows = "nq", rows_per_block = 1 : i64, batch_heads = "bh", args = ["q"], sizes = [], waits_for_previous = 1 : i64}} {
  return
}

// -----

// A block mask's table: words per block by keys, over batches ("b").
// expected-error @below {{'scratch_keys_per_word' must be a positive integer}}
func.func @f() attributes {flash.launch = {block = 512 : i64, rows = "nq", rows_per_block = 64 : i64, batch_heads = "b", args = ["q"], sizes = [], scratch_keys_per_word = 0 : i64}} {
  return
}

// -----

// expected-error @below {{'batch_heads' is 'heads'}}
func.func @f() attributes {flash.launch = {block = 512 : i64, rows = "nq", rows_per_block = 64 : i64, batch_heads = "heads", args = ["q"], sizes = []}} {
  return
}


// -----

// Tensor maps: [buffer argument, box rows, box columns] each.
// expected-error @below {{'tensor_maps' must be an array of [argument, box rows, box columns] triples}}
func.func @f() attributes {flash.launch = {block = 384 : i64, rows = "nq", rows_per_block = 128 : i64, batch_heads = "bh", args = ["q"], sizes = [], tensor_maps = [[0, 128]]}} {
  return
}

// -----

// expected-error @below {{'flash.tensor_maps' must be an i64 array}}
func.func @f() attributes {flash.tensor_maps = [5]} {
  return
}
