// Chapter 07's translation model for parts 6 and 7, set up by chapter 07's own code: its
// settings as its command line makes them (its defaults, or --quick's), and the model trained
// by chapter 07's training, or loaded from a folder that chapter 07's --save wrote.
#pragma once
#include "chapters/01_encoder_decoder/app.hpp"
#include "chapters/07_transformer/transformer_flags.hpp"
#include "chapters/08_attention_at_scale/cached_translation.hpp"

#include <memory>
#include <string>
#include <vector>

namespace attn::ch08 {

struct Chapter07Settings {
    ch01::AppSettings settings;
    ch07::TransformerFlags flags;
};

// Chapter 07's command line with these arguments after the program's name (none: its
// defaults), parsed and finished by chapter 07's functions: its defaults, its checks. A flag
// chapter 07 refuses is refused in one line (UsageError without chapter 07's usage line).
Chapter07Settings chapter07_settings(const std::vector<std::string>& arguments);

struct Chapter07Translation {
    Chapter07Settings chapter07;
    ch01::Task task;
    std::unique_ptr<CachedTranslationModel<float>> model;   // a module keeps pointers to its members: never moved
    double train_seconds = 0, train_cpu_seconds = 0;        // wall clock and CPU; 0 when loaded
};

// The task and the model of chapter07.settings, made as chapter 07's program makes them (the
// same seed gives the same parameters), and loaded from settings.load if that is set: a
// checkpoint of other sizes or of another task is refused in one line (InputError), before
// any work, as chapter 07 refuses it.
Chapter07Translation load_or_make_chapter07_translation(const Chapter07Settings& chapter07);

// Prints `heading`, then the model, and trains it by chapter 07's train_translation unless it
// was loaded: the same numbers as chapter 07's run with the same settings.
void train_unless_loaded(Chapter07Translation& translation, const std::string& heading);

}  // namespace attn::ch08
