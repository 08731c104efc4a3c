// gravf_sha256: SHA-256 (FIPS 180-4) for the testbench, so that it checks
// a buffer read back from its memory model against the hash in
// manifest.json, as the host program does.
//
//   start          begin a new message
//   add(b)         append one byte
//   finish(digest) pad the message and return the 256-bit digest, first
//                  byte of the hash in the most significant bits
//
// Behavioural code, called through hierarchical task calls; no clock.
`default_nettype none

module gravf_sha256;

reg [31:0] h [0:7];
reg [7:0]  block [0:63];
integer    fill;               // bytes in block
reg [63:0] length;             // bytes added

function [31:0] rotr;
    input [31:0] x;
    input integer n;
    rotr = (x >> n) | (x << (32 - n));
endfunction

function [31:0] k_of;
    input [5:0] i;
    reg [31:0] k [0:63];
    begin
        k[0]  = 32'h428a2f98; k[1]  = 32'h71374491; k[2]  = 32'hb5c0fbcf; k[3]  = 32'he9b5dba5;
        k[4]  = 32'h3956c25b; k[5]  = 32'h59f111f1; k[6]  = 32'h923f82a4; k[7]  = 32'hab1c5ed5;
        k[8]  = 32'hd807aa98; k[9]  = 32'h12835b01; k[10] = 32'h243185be; k[11] = 32'h550c7dc3;
        k[12] = 32'h72be5d74; k[13] = 32'h80deb1fe; k[14] = 32'h9bdc06a7; k[15] = 32'hc19bf174;
        k[16] = 32'he49b69c1; k[17] = 32'hefbe4786; k[18] = 32'h0fc19dc6; k[19] = 32'h240ca1cc;
        k[20] = 32'h2de92c6f; k[21] = 32'h4a7484aa; k[22] = 32'h5cb0a9dc; k[23] = 32'h76f988da;
        k[24] = 32'h983e5152; k[25] = 32'ha831c66d; k[26] = 32'hb00327c8; k[27] = 32'hbf597fc7;
        k[28] = 32'hc6e00bf3; k[29] = 32'hd5a79147; k[30] = 32'h06ca6351; k[31] = 32'h14292967;
        k[32] = 32'h27b70a85; k[33] = 32'h2e1b2138; k[34] = 32'h4d2c6dfc; k[35] = 32'h53380d13;
        k[36] = 32'h650a7354; k[37] = 32'h766a0abb; k[38] = 32'h81c2c92e; k[39] = 32'h92722c85;
        k[40] = 32'ha2bfe8a1; k[41] = 32'ha81a664b; k[42] = 32'hc24b8b70; k[43] = 32'hc76c51a3;
        k[44] = 32'hd192e819; k[45] = 32'hd6990624; k[46] = 32'hf40e3585; k[47] = 32'h106aa070;
        k[48] = 32'h19a4c116; k[49] = 32'h1e376c08; k[50] = 32'h2748774c; k[51] = 32'h34b0bcb5;
        k[52] = 32'h391c0cb3; k[53] = 32'h4ed8aa4a; k[54] = 32'h5b9cca4f; k[55] = 32'h682e6ff3;
        k[56] = 32'h748f82ee; k[57] = 32'h78a5636f; k[58] = 32'h84c87814; k[59] = 32'h8cc70208;
        k[60] = 32'h90befffa; k[61] = 32'ha4506ceb; k[62] = 32'hbef9a3f7; k[63] = 32'hc67178f2;
        k_of = k[i];
    end
endfunction

// Compress the full block into h.
task compress;
    reg [31:0] w [0:63];
    reg [31:0] a, b, c, d, e, f, g, hh, s0, s1, t1, t2;
    integer i;
    begin
        for (i = 0; i < 16; i = i + 1)
            w[i] = {block[4*i], block[4*i+1], block[4*i+2], block[4*i+3]};
        for (i = 16; i < 64; i = i + 1) begin
            s0 = rotr(w[i-15], 7) ^ rotr(w[i-15], 18) ^ (w[i-15] >> 3);
            s1 = rotr(w[i-2], 17) ^ rotr(w[i-2], 19) ^ (w[i-2] >> 10);
            w[i] = w[i-16] + s0 + w[i-7] + s1;
        end
        a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; hh = h[7];
        for (i = 0; i < 64; i = i + 1) begin
            s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            t1 = hh + s1 + ((e & f) ^ (~e & g)) + k_of(i[5:0]) + w[i];
            s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            t2 = s0 + ((a & b) ^ (a & c) ^ (b & c));
            hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        end
        h[0] = h[0] + a; h[1] = h[1] + b; h[2] = h[2] + c; h[3] = h[3] + d;
        h[4] = h[4] + e; h[5] = h[5] + f; h[6] = h[6] + g; h[7] = h[7] + hh;
        fill = 0;
    end
endtask

task start;
    begin
        h[0] = 32'h6a09e667; h[1] = 32'hbb67ae85; h[2] = 32'h3c6ef372; h[3] = 32'ha54ff53a;
        h[4] = 32'h510e527f; h[5] = 32'h9b05688c; h[6] = 32'h1f83d9ab; h[7] = 32'h5be0cd19;
        fill = 0;
        length = 64'd0;
    end
endtask

task add;
    input [7:0] x;
    begin
        block[fill] = x;
        fill = fill + 1;
        length = length + 64'd1;
        if (fill == 64) compress;
    end
endtask

task finish;
    output [255:0] digest;
    reg [63:0] bits_len;
    integer i;
    begin
        bits_len = length << 3;
        block[fill] = 8'h80;
        fill = fill + 1;
        if (fill > 56) begin
            while (fill < 64) begin
                block[fill] = 8'h00;
                fill = fill + 1;
            end
            compress;
        end
        while (fill < 56) begin
            block[fill] = 8'h00;
            fill = fill + 1;
        end
        for (i = 0; i < 8; i = i + 1) block[56 + i] = bits_len[63 - 8*i -: 8];
        compress;
        digest = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]};
    end
endtask

endmodule

`default_nettype wire
