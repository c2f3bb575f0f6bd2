package dev.sluice.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every bad capture line stops the replay as {@code FILE:LINE: problem}: malformed JSON, a wrong
 * shape or type, numbers out of range (hits as the RLS port bounds them), invalid UTF-8 and lines
 * over the cap. Line numbers count blank lines, as an editor does.
 */
class CaptureFileTest {
  private static final String GOOD =
      "{\"ts\":1700000000000,\"domain\":\"shop\",\"descriptors\":[{\"entries\":"
          + "[{\"key\":\"user\",\"value\":\"a\"}]}],\"hits\":0}";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          {"ts":1,"domain":"d","descriptors":[1]}                   | 'descriptors[0]' must be an object, found the number 1
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":{}} | 'hits' must be an integer, found an object
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":9223372036854775807} | 'hits': hits_addend 9223372036854775807 is above the maximum of 4294967295
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":4294967296} | 'hits': hits_addend 4294967296 is above the maximum of 4294967295
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":1e30} | 'hits' must be an integer of at most 64 bits, found 1e30
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":1.5} | 'hits' must be an integer of at most 64 bits, found 1.5
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":"v"}]}],"hits":-1} | 'hits' must be >= 0: -1
          {"ts":-9223372036854775808,"domain":"d","descriptors":[{"entries":[]}]} | 'ts' must be epoch milliseconds in [0, 253402300799999]: -9223372036854775808
          {"ts":9223372036854775807,"domain":"d","descriptors":[{"entries":[]}]} | 'ts' must be epoch milliseconds in [0, 253402300799999]: 9223372036854775807
          {"ts":"5","domain":"d","descriptors":[{"entries":[]}]}     | 'ts' must be an integer, found the string "5"
          {"domain":"d","descriptors":[{"entries":[]}]}              | missing 'ts'
          {"ts":1,"domain":7,"descriptors":[{"entries":[]}]}         | 'domain' must be a string, found the number 7
          {"ts":1,"domain":"","descriptors":[{"entries":[]}]}        | 'domain' must not be empty
          {"ts":1,"domain":"d","descriptors":[]}                     | 'descriptors' must not be empty
          {"ts":1,"domain":"d","descriptors":{}}                     | 'descriptors' must be an array, found an object
          {"ts":1,"domain":"d","descriptors":[{}]}                   | missing 'descriptors[0].entries'
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":"k","value":5}]}]} | 'descriptors[0].entries[0].value' must be a string, found the number 5
          {"ts":1,"domain":"d","descriptors":[{"entries":[{"key":null,"value":"v"}]}]} | 'descriptors[0].entries[0].key' must be a string, found null
          [1]                                                        | expected a JSON object, found an array
          `{ts:1,domain:"d",descriptors:[]}`                         | not JSON: unexpected text at column 3
          `{"ts":1,"domain":"d","descriptors":[{"entries":[]}]} {}`  | not JSON: unexpected text at column 55
          """)
  void captureFile_badLine_failsNamingFileLineAndProblem(String line, String problem)
      throws Exception {
    Path capture = dir.resolve("bad.jsonl");
    Files.writeString(capture, GOOD + "\n\n" + line + "\n" + GOOD + "\n");

    assertThatThrownBy(() -> readAll(capture, 1 << 20))
        .isInstanceOf(CaptureFile.BadLine.class)
        .hasMessage(capture + ":3: " + problem);
  }

  @Test
  void captureFile_invalidUtf8_failsNamingTheByte() throws Exception {
    Path capture = dir.resolve("latin1.jsonl");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.write((GOOD + "\n").getBytes(StandardCharsets.UTF_8));
    bytes.write("{\"ts\":1,\"domain\":\"caf".getBytes(StandardCharsets.UTF_8));
    bytes.write(0xE9); // é in Latin-1, a lone continuation-less lead byte in UTF-8
    bytes.write("\"}\n".getBytes(StandardCharsets.UTF_8));
    Files.write(capture, bytes.toByteArray());

    assertThatThrownBy(() -> readAll(capture, 1 << 20))
        .isInstanceOf(CaptureFile.BadLine.class)
        .hasMessage(capture + ":2: not valid UTF-8 (byte 22 of the line)");
  }

  @Test
  void captureFile_lineOverTheCap_failsWithoutReadingItWhole() throws Exception {
    Path capture = dir.resolve("long.jsonl");
    Files.writeString(capture, GOOD + "\n" + "x".repeat(300_000) + "\n" + GOOD + "\n");

    assertThatThrownBy(() -> readAll(capture, GOOD.length()))
        .isInstanceOf(CaptureFile.BadLine.class)
        .hasMessage(
            capture
                + ":2: line is longer than the limit of "
                + GOOD.length()
                + " bytes"
                + " (--max-line-bytes)");
  }

  @Test
  void captureFile_linesAtTheCapCrlfAndNoFinalNewline_allRead() throws Exception {
    Path capture = dir.resolve("ok.jsonl");
    String withHits = GOOD.replace("\"hits\":0", "\"hits\":4294967295");
    Files.writeString(capture, GOOD + "\r\n" + withHits + "\n\n" + GOOD);

    List<CapturedRequest> read = readAll(capture, withHits.length() + 1);

    assertThat(read).hasSize(3);
    assertThat(read.get(1).hits()).isEqualTo(4_294_967_295L);
  }

  private static List<CapturedRequest> readAll(Path capture, int maxLineBytes) throws Exception {
    List<CapturedRequest> all = new ArrayList<>();
    try (CaptureFile file = new CaptureFile(capture, maxLineBytes)) {
      file.forEachRemaining(all::add);
    }
    return all;
  }
}
